-- hand-changed (docs/decisions/0139-dora-ict-incidents.md): each incident recorded so far is given
-- its firm's reference, ICT-<year>-<number>, numbered in the order the firm recorded them in each
-- year in Ireland, before the column is required. Row-level security is forced on ict_incidents,
-- so an owner that is not a superuser would update no row: it is lifted for this one statement,
-- inside the migrations' single transaction.
ALTER TABLE "ict_incidents" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE ict_incidents NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "ict_incidents" AS incident SET "reference" = numbered.reference
  FROM (
    SELECT "broker_id", "id",
      'ICT-' || to_char("created_at" AT TIME ZONE 'Europe/Dublin', 'YYYY') || '-' ||
        lpad(row_number() OVER (
          PARTITION BY "broker_id", to_char("created_at" AT TIME ZONE 'Europe/Dublin', 'YYYY')
          ORDER BY "created_at", "id"
        )::text, 3, '0') AS reference
    FROM "ict_incidents"
  ) AS numbered
  WHERE incident."broker_id" = numbered."broker_id" AND incident."id" = numbered."id";--> statement-breakpoint
ALTER TABLE ict_incidents FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "ict_incidents" ALTER COLUMN "reference" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ict_incidents_reference_key" ON "ict_incidents" USING btree ("broker_id","reference");
