-- drizzle-kit's output, with the hand-written part marked: the scheme's register of conflicts of
-- interest (guidance: the Pensions Authority's Code of Practice for trustees), kept beside the
-- governance registers (docs/decisions/0122-the-scheme-year.md).
CREATE TABLE "conflicts_of_interest" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"person_name" text NOT NULL,
	"trustee_id" text,
	"interest" text NOT NULL,
	"declared_on" date NOT NULL,
	"management" text,
	"closed_on" date,
	CONSTRAINT "conflicts_of_interest_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "conflicts_of_interest_person_length" CHECK (char_length("conflicts_of_interest"."person_name") between 1 and 200),
	CONSTRAINT "conflicts_of_interest_interest_length" CHECK (char_length("conflicts_of_interest"."interest") between 1 and 2000),
	CONSTRAINT "conflicts_of_interest_management_length" CHECK ("conflicts_of_interest"."management" is null or char_length("conflicts_of_interest"."management") between 1 and 2000),
	CONSTRAINT "conflicts_of_interest_closed_after_declared" CHECK ("conflicts_of_interest"."closed_on" is null or "conflicts_of_interest"."closed_on" >= "conflicts_of_interest"."declared_on")
);
--> statement-breakpoint
ALTER TABLE "conflicts_of_interest" ADD CONSTRAINT "conflicts_of_interest_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts_of_interest" ADD CONSTRAINT "conflicts_of_interest_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts_of_interest" ADD CONSTRAINT "conflicts_of_interest_trustee_same_scheme_fk" FOREIGN KEY ("broker_id","trustee_id","scheme_id") REFERENCES "public"."trustees"("broker_id","id","scheme_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conflicts_of_interest_scheme_idx" ON "conflicts_of_interest" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). An entry is never
-- deleted: its management is changed and it is closed, so it is updated.
GRANT SELECT, INSERT, UPDATE ON conflicts_of_interest TO pension_app, pension_platform;--> statement-breakpoint
ALTER TABLE conflicts_of_interest ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE conflicts_of_interest FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON conflicts_of_interest TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON conflicts_of_interest TO pension_platform USING (true) WITH CHECK (true);
