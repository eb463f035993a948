CREATE TABLE "compliance_reminders" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"obligation_key" text NOT NULL,
	"due_on" date NOT NULL,
	"stage" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "compliance_reminders_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "compliance_reminders_once_key" UNIQUE("broker_id","obligation_key","due_on","stage","user_id")
);
--> statement-breakpoint
CREATE TABLE "key_function_holders" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"function" text NOT NULL,
	"holder_name" text NOT NULL,
	"holder_email" text,
	"appointed_on" date NOT NULL,
	"ended_on" date,
	"fitness_and_probity" text NOT NULL,
	"also_serves_employer" boolean NOT NULL,
	"conflicts_protocol" text,
	CONSTRAINT "key_function_holders_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "key_function_holders_function_known" CHECK ("key_function_holders"."function" in ('risk_management','internal_audit','actuarial')),
	CONSTRAINT "key_function_holders_fitness_known" CHECK ("key_function_holders"."fitness_and_probity" in ('pending','confirmed','failed')),
	CONSTRAINT "key_function_holders_name_length" CHECK (char_length("key_function_holders"."holder_name") between 1 and 200),
	CONSTRAINT "key_function_holders_end_after_start" CHECK ("key_function_holders"."ended_on" is null or "key_function_holders"."ended_on" >= "key_function_holders"."appointed_on")
);
--> statement-breakpoint
CREATE TABLE "ora_reports" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"performed_on" date NOT NULL,
	"trigger" text NOT NULL,
	"summary" text,
	"next_due" date NOT NULL,
	CONSTRAINT "ora_reports_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "ora_reports_trigger_known" CHECK ("ora_reports"."trigger" in ('scheduled','significant_change')),
	CONSTRAINT "ora_reports_next_due_after" CHECK ("ora_reports"."next_due" > "ora_reports"."performed_on")
);
--> statement-breakpoint
CREATE TABLE "significant_changes" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"policy_id" text,
	"occurred_on" date NOT NULL,
	"description" text NOT NULL,
	CONSTRAINT "significant_changes_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "significant_changes_description_length" CHECK (char_length("significant_changes"."description") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "trustees" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"director_count" integer,
	"appointed_on" date NOT NULL,
	"ended_on" date,
	CONSTRAINT "trustees_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "trustees_kind_known" CHECK ("trustees"."kind" in ('individual','corporate')),
	CONSTRAINT "trustees_directors_of_corporate" CHECK ("trustees"."director_count" is null or ("trustees"."kind" = 'corporate' and "trustees"."director_count" >= 0)),
	CONSTRAINT "trustees_name_length" CHECK (char_length("trustees"."name") between 1 and 200),
	CONSTRAINT "trustees_end_after_start" CHECK ("trustees"."ended_on" is null or "trustees"."ended_on" >= "trustees"."appointed_on")
);
--> statement-breakpoint
CREATE TABLE "written_policies" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"version" text NOT NULL,
	"status" text NOT NULL,
	"approved_on" date,
	"approved_by" text,
	"next_review_due" date,
	CONSTRAINT "written_policies_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "written_policies_kind_known" CHECK ("written_policies"."kind" in ('risk_management','internal_audit','remuneration','actuarial','outsourcing')),
	CONSTRAINT "written_policies_status_known" CHECK ("written_policies"."status" in ('draft','approved','superseded')),
	CONSTRAINT "written_policies_approved_dated" CHECK (("written_policies"."status" = 'draft') = ("written_policies"."approved_on" is null) and ("written_policies"."approved_on" is null) = ("written_policies"."next_review_due" is null)),
	CONSTRAINT "written_policies_title_length" CHECK (char_length("written_policies"."title") between 1 and 200),
	CONSTRAINT "written_policies_version_length" CHECK (char_length("written_policies"."version") between 1 and 40)
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "compliance_reminders" ADD CONSTRAINT "compliance_reminders_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_reminders" ADD CONSTRAINT "compliance_reminders_user_same_tenant_fk" FOREIGN KEY ("user_id","broker_id") REFERENCES "public"."users"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_reminders" ADD CONSTRAINT "compliance_reminders_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id") REFERENCES "public"."schemes"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_function_holders" ADD CONSTRAINT "key_function_holders_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_function_holders" ADD CONSTRAINT "key_function_holders_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ora_reports" ADD CONSTRAINT "ora_reports_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ora_reports" ADD CONSTRAINT "ora_reports_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "significant_changes" ADD CONSTRAINT "significant_changes_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "significant_changes" ADD CONSTRAINT "significant_changes_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "significant_changes" ADD CONSTRAINT "significant_changes_policy_same_tenant_fk" FOREIGN KEY ("broker_id","policy_id") REFERENCES "public"."written_policies"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trustees" ADD CONSTRAINT "trustees_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trustees" ADD CONSTRAINT "trustees_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "written_policies" ADD CONSTRAINT "written_policies_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "written_policies" ADD CONSTRAINT "written_policies_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_function_holders_scheme_idx" ON "key_function_holders" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ora_reports_scheme_idx" ON "ora_reports" USING btree ("broker_id","scheme_id","performed_on");--> statement-breakpoint
CREATE INDEX "significant_changes_scheme_idx" ON "significant_changes" USING btree ("broker_id","scheme_id","occurred_on");--> statement-breakpoint
CREATE INDEX "trustees_scheme_idx" ON "trustees" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
CREATE INDEX "written_policies_scheme_idx" ON "written_policies" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "written_policies_one_approved_key" ON "written_policies" USING btree ("broker_id","scheme_id","kind") WHERE "written_policies"."status" = 'approved' and "written_policies"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "schemes_broker_id_idx" ON "schemes" USING btree ("broker_id","id");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder'));--> statement-breakpoint
-- hand-written: grants, row-level security and the scheduler's role (re-append after regenerating).
-- The registers change and are soft-deleted; significant changes and sent reminders only grow.
GRANT SELECT, INSERT, UPDATE ON trustees, key_function_holders, written_policies, ora_reports TO pension_app, pension_platform;--> statement-breakpoint
GRANT SELECT, INSERT ON significant_changes TO pension_app, pension_platform;--> statement-breakpoint
GRANT SELECT ON compliance_reminders TO pension_app, pension_platform;--> statement-breakpoint
-- The reminders job (docs/decisions.md, "Governance rules") reads every tenant's registers and the
-- accounts it writes to, records what it sent and queues the e-mail: nothing else.
DO $$
BEGIN
  CREATE ROLE pension_scheduler NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pension_scheduler TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT pension_scheduler TO pension_runtime;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pension_scheduler;--> statement-breakpoint
GRANT SELECT ON brokers, employers, schemes, users, trustees, key_function_holders, written_policies, ora_reports, significant_changes TO pension_scheduler;--> statement-breakpoint
GRANT SELECT, INSERT ON compliance_reminders TO pension_scheduler;--> statement-breakpoint
GRANT INSERT ON email_outbox TO pension_scheduler;--> statement-breakpoint
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['trustees','key_function_holders','written_policies','ora_reports','significant_changes','compliance_reminders'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant())', tenant_table);
    EXECUTE format('CREATE POLICY platform_access ON %I TO pension_platform USING (true) WITH CHECK (true)', tenant_table);
  END LOOP;
  FOREACH tenant_table IN ARRAY ARRAY['brokers','employers','schemes','users','trustees','key_function_holders','written_policies','ora_reports','significant_changes'] LOOP
    EXECUTE format('CREATE POLICY scheduler_read ON %I FOR SELECT TO pension_scheduler USING (true)', tenant_table);
  END LOOP;
  CREATE POLICY scheduler_read ON compliance_reminders FOR SELECT TO pension_scheduler USING (true);
  CREATE POLICY scheduler_record ON compliance_reminders FOR INSERT TO pension_scheduler WITH CHECK (true);
  CREATE POLICY scheduler_queue ON email_outbox FOR INSERT TO pension_scheduler WITH CHECK (true);
END $$;
