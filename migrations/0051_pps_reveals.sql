-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0145-a-reason-for-a-pps-reveal.md): each reveal of a member's PPS number with
-- the reason given, and the note that the audit record never keeps.
CREATE TABLE "pps_reveals" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"member_id" text NOT NULL,
	"revealed_by" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"revealed_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "pps_reveals_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "pps_reveals_reason_known" CHECK ("pps_reveals"."reason" in ('revenue','transfer','benefit_payment','identity_check','records_correction','member_request','other')),
	CONSTRAINT "pps_reveals_note_whole" CHECK (("pps_reveals"."note" is null or char_length("pps_reveals"."note") between 1 and 300) and ("pps_reveals"."reason" <> 'other' or "pps_reveals"."note" is not null))
);
--> statement-breakpoint
ALTER TABLE "pps_reveals" ADD CONSTRAINT "pps_reveals_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pps_reveals" ADD CONSTRAINT "pps_reveals_member_same_tenant_fk" FOREIGN KEY ("member_id","broker_id") REFERENCES "public"."members"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pps_reveals_member_idx" ON "pps_reveals" USING btree ("broker_id","member_id","revealed_at");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating;
-- docs/decisions/0145-a-reason-for-a-pps-reveal.md). A reveal is written once with its audit
-- record and never changed; SuperAdmin only reads them.
GRANT SELECT, INSERT ON pps_reveals TO pension_app;--> statement-breakpoint
GRANT SELECT ON pps_reveals TO pension_platform;--> statement-breakpoint
ALTER TABLE pps_reveals ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE pps_reveals FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON pps_reveals TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON pps_reveals TO pension_platform USING (true) WITH CHECK (true);
