-- drizzle-kit's output, with the hand-written parts marked: the scheme year (domain.md, "The scheme
-- year"): schemes gain their year end and an RAC its kind; trustee training and the filings.
CREATE TABLE "filings" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"kind" text NOT NULL,
	"period_end" date NOT NULL,
	"completed_on" date,
	"audited" boolean,
	CONSTRAINT "filings_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "filings_kind_known" CHECK ("filings"."kind" in ('annual_report','annual_scheme_information','annual_compliance_statement')),
	CONSTRAINT "filings_audited_of_annual_report" CHECK ("filings"."audited" is null or "filings"."kind" = 'annual_report')
);
--> statement-breakpoint
CREATE TABLE "trustee_trainings" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"trustee_id" text NOT NULL,
	"completed_on" date NOT NULL,
	"topic" text,
	"director_name" text,
	CONSTRAINT "trustee_trainings_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "trustee_trainings_topic_length" CHECK ("trustee_trainings"."topic" is null or char_length("trustee_trainings"."topic") between 1 and 200),
	CONSTRAINT "trustee_trainings_director_length" CHECK ("trustee_trainings"."director_name" is null or char_length("trustee_trainings"."director_name") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "written_policies" DROP CONSTRAINT "written_policies_kind_known";--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "year_end" text DEFAULT '12-31' NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "rac_kind" text;--> statement-breakpoint
ALTER TABLE "filings" ADD CONSTRAINT "filings_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filings" ADD CONSTRAINT "filings_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trustee_trainings" ADD CONSTRAINT "trustee_trainings_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-moved: the key a training names must exist before the foreign key that names it.
ALTER TABLE "trustees" ADD CONSTRAINT "trustees_id_scheme_key" UNIQUE("broker_id","id","scheme_id");--> statement-breakpoint
ALTER TABLE "trustee_trainings" ADD CONSTRAINT "trustee_trainings_trustee_same_scheme_fk" FOREIGN KEY ("broker_id","trustee_id","scheme_id") REFERENCES "public"."trustees"("broker_id","id","scheme_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trustee_trainings" ADD CONSTRAINT "trustee_trainings_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filings_scheme_idx" ON "filings" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "filings_one_per_period_key" ON "filings" USING btree ("broker_id","scheme_id","kind","period_end") WHERE "filings"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "trustee_trainings_trustee_idx" ON "trustee_trainings" USING btree ("broker_id","trustee_id","created_at","id");--> statement-breakpoint
CREATE INDEX "trustee_trainings_scheme_idx" ON "trustee_trainings" USING btree ("broker_id","scheme_id");--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_year_end_form" CHECK ("schemes"."year_end" ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$');--> statement-breakpoint
-- hand-written: every RAC kept so far was treated as an IORP, its registers applied: a trust RAC.
UPDATE "schemes" SET "rac_kind" = 'trust' WHERE "type" = 'RAC';--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_rac_kind_of_rac" CHECK (("schemes"."type" = 'RAC') = ("schemes"."rac_kind" is not null) and ("schemes"."rac_kind" is null or "schemes"."rac_kind" in ('trust','contract')));--> statement-breakpoint
ALTER TABLE "written_policies" ADD CONSTRAINT "written_policies_kind_known" CHECK ("written_policies"."kind" in ('risk_management','internal_audit','remuneration','actuarial','outsourcing','investment_principles'));--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). A training is a
-- record of what happened and only grows; a filing is completed later, so it is updated.
GRANT SELECT, INSERT, UPDATE ON filings TO pension_app, pension_platform;--> statement-breakpoint
GRANT SELECT, INSERT ON trustee_trainings TO pension_app, pension_platform;--> statement-breakpoint
-- The reminders job reads them to know what is due (migrations/0015_governance.sql).
GRANT SELECT ON filings, trustee_trainings TO pension_scheduler;--> statement-breakpoint
-- And how many active and deferred members each scheme has (an annual report is audited above
-- 100): those columns only, never a member's name, PPS number or pay.
GRANT SELECT (broker_id, scheme_id, employer_id, status, deleted_at) ON members TO pension_scheduler;--> statement-breakpoint
CREATE POLICY scheduler_read ON members FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['filings','trustee_trainings'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant())', tenant_table);
    EXECUTE format('CREATE POLICY platform_access ON %I TO pension_platform USING (true) WITH CHECK (true)', tenant_table);
    EXECUTE format('CREATE POLICY scheduler_read ON %I FOR SELECT TO pension_scheduler USING (true)', tenant_table);
  END LOOP;
END $$;
