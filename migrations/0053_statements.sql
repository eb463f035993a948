-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0141-pension-benefit-statements.md): projection assumption sets, statement runs
-- and each member's statement in a run; schemes gain what a statement projects to.
CREATE TABLE "statement_assumptions" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"effective_from" date NOT NULL,
	"source" text NOT NULL,
	"best_estimate_return_basis_points" integer NOT NULL,
	"unfavourable_return_basis_points" integer NOT NULL,
	"inflation_basis_points" integer NOT NULL,
	"salary_growth_basis_points" integer NOT NULL,
	"annuity_factor_hundredths" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "statement_assumptions_version_positive" CHECK ("statement_assumptions"."version" >= 1),
	CONSTRAINT "statement_assumptions_annuity_factor" CHECK ("statement_assumptions"."annuity_factor_hundredths" between 100 and 10000)
);
--> statement-breakpoint
CREATE TABLE "statement_runs" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"information_date" date NOT NULL,
	"members_by" date NOT NULL,
	"assumptions_id" text NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	"done" integer NOT NULL,
	"failed" integer NOT NULL,
	"issues" jsonb NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"approved_by" text,
	"approved_at" timestamp (3) with time zone,
	"issued_by" text,
	"issued_at" timestamp (3) with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "statement_runs_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "statement_runs_status" CHECK ("statement_runs"."status" in ('queued','running','ready','approved','issued','failed')),
	CONSTRAINT "statement_runs_counts" CHECK ("statement_runs"."total" >= 0 and "statement_runs"."done" >= 0 and "statement_runs"."failed" >= 0 and "statement_runs"."done" + "statement_runs"."failed" <= "statement_runs"."total"),
	CONSTRAINT "statement_runs_dates" CHECK ("statement_runs"."information_date" < "statement_runs"."members_by")
);
--> statement-breakpoint
CREATE TABLE "statements" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"run_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"information_date" date NOT NULL,
	"status" text NOT NULL,
	"figures" jsonb,
	"pdf_bytes" integer,
	"document_id" text,
	"paper" boolean DEFAULT false NOT NULL,
	"issued_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "statements_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "statements_status" CHECK ("statements"."status" in ('pending','made','failed')),
	CONSTRAINT "statements_made_whole" CHECK (("statements"."status" = 'made') = ("statements"."figures" is not null))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "normal_retirement_age" integer;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "accrual_rate" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "funding_level_basis_points" integer;--> statement-breakpoint
ALTER TABLE "statement_assumptions" ADD CONSTRAINT "statement_assumptions_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_runs" ADD CONSTRAINT "statement_runs_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_runs" ADD CONSTRAINT "statement_runs_assumptions_id_statement_assumptions_id_fk" FOREIGN KEY ("assumptions_id") REFERENCES "public"."statement_assumptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_runs" ADD CONSTRAINT "statement_runs_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_run_fk" FOREIGN KEY ("broker_id","run_id") REFERENCES "public"."statement_runs"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_member_same_scheme_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "statement_assumptions_version_key" ON "statement_assumptions" USING btree (coalesce("broker_id", ''),"name","version");--> statement-breakpoint
CREATE INDEX "statement_assumptions_recorded_idx" ON "statement_assumptions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "statement_runs_scheme_idx" ON "statement_runs" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "statements_once_per_run_key" ON "statements" USING btree ("broker_id","run_id","member_id");--> statement-breakpoint
CREATE INDEX "statements_member_idx" ON "statements" USING btree ("broker_id","member_id","information_date");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder','second_factor_changed','new_browser_signin','data_protection_reminder','benefit_statement_issued'));--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_normal_retirement_age" CHECK ("schemes"."normal_retirement_age" is null or "schemes"."normal_retirement_age" between 50 and 99);--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_accrual_rate_form" CHECK ("schemes"."accrual_rate" is null or "schemes"."accrual_rate" ~ '^[1-9][0-9]{0,2}/[1-9][0-9]{0,3}$');--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_funding_level" CHECK ("schemes"."funding_level_basis_points" is null or "schemes"."funding_level_basis_points" between 0 and 100000);
--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). An assumption set is
-- the platform's (no broker, added by SuperAdmin) or a firm's own: a firm reads both and writes
-- only its own; SuperAdmin may correct any set no run has used. Runs and statements are a firm's, never deleted; SuperAdmin only reads them.
GRANT SELECT, INSERT, UPDATE ON statement_assumptions TO pension_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON statement_assumptions TO pension_platform;--> statement-breakpoint
ALTER TABLE statement_assumptions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE statement_assumptions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_read ON statement_assumptions FOR SELECT TO pension_app USING (broker_id is null or broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY tenant_insert ON statement_assumptions FOR INSERT TO pension_app WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY tenant_update ON statement_assumptions FOR UPDATE TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON statement_assumptions TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON statement_runs TO pension_app;--> statement-breakpoint
GRANT SELECT ON statement_runs TO pension_platform;--> statement-breakpoint
ALTER TABLE statement_runs ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE statement_runs FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON statement_runs TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON statement_runs TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
-- The reminders job reads a scheme's runs to know whether its benefit statements are due: the
-- columns of the duty only, never a member's issues.
GRANT SELECT (broker_id, employer_id, scheme_id, information_date, members_by, status, issued_at) ON statement_runs TO pension_scheduler;--> statement-breakpoint
CREATE POLICY scheduler_read ON statement_runs FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON statements TO pension_app;--> statement-breakpoint
GRANT SELECT ON statements TO pension_platform;--> statement-breakpoint
ALTER TABLE statements ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE statements FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON statements TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON statements TO pension_platform USING (true) WITH CHECK (true);
