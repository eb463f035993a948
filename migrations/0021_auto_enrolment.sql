CREATE TABLE "payroll_employees" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"pps_encrypted" text NOT NULL,
	"pps_lookup" text NOT NULL,
	"pps_key_id" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"date_of_birth" date NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "payroll_employees_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "payroll_employees_person_key" UNIQUE("broker_id","employer_id","pps_lookup"),
	CONSTRAINT "payroll_employees_employer_key" UNIQUE("broker_id","id","employer_id"),
	CONSTRAINT "payroll_employees_pps_lookup_shape" CHECK ("payroll_employees"."pps_lookup" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "payroll_employees_names_length" CHECK (char_length("payroll_employees"."first_name") between 1 and 100 and char_length("payroll_employees"."last_name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "payroll_lines" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"upload_id" text NOT NULL,
	"employee_id" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"year_units" integer NOT NULL,
	"gross_cents" bigint NOT NULL,
	"employee_cents" bigint NOT NULL,
	"employer_cents" bigint NOT NULL,
	"arrangement" text NOT NULL,
	"scheme_id" text,
	CONSTRAINT "payroll_lines_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "payroll_lines_period_order" CHECK ("payroll_lines"."period_end" >= "payroll_lines"."period_start"),
	CONSTRAINT "payroll_lines_amounts_not_negative" CHECK ("payroll_lines"."gross_cents" >= 0 and "payroll_lines"."employee_cents" >= 0 and "payroll_lines"."employer_cents" >= 0),
	CONSTRAINT "payroll_lines_arrangement_known" CHECK (("payroll_lines"."arrangement" = 'scheme') = ("payroll_lines"."scheme_id" is not null) and "payroll_lines"."arrangement" in ('scheme','prsa','none'))
);
--> statement-breakpoint
CREATE TABLE "payroll_uploads" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"status" text NOT NULL,
	"file_sha256" text,
	"file_name" text,
	"file_bytes" bigint DEFAULT 0 NOT NULL,
	"rows_read" bigint DEFAULT 0 NOT NULL,
	"rows_written" bigint DEFAULT 0 NOT NULL,
	"employees_written" bigint DEFAULT 0 NOT NULL,
	"issue_count" bigint DEFAULT 0 NOT NULL,
	"issues" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "payroll_uploads_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "payroll_uploads_status_known" CHECK ("payroll_uploads"."status" in ('running','succeeded','rejected','failed'))
);
--> statement-breakpoint
ALTER TABLE "payroll_employees" ADD CONSTRAINT "payroll_employees_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_employees" ADD CONSTRAINT "payroll_employees_employer_same_tenant_fk" FOREIGN KEY ("employer_id","broker_id") REFERENCES "public"."employers"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_upload_fk" FOREIGN KEY ("broker_id","upload_id") REFERENCES "public"."payroll_uploads"("broker_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_employee_fk" FOREIGN KEY ("broker_id","employee_id","employer_id") REFERENCES "public"."payroll_employees"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_lines" ADD CONSTRAINT "payroll_lines_scheme_same_tenant_fk" FOREIGN KEY ("scheme_id","employer_id","broker_id") REFERENCES "public"."schemes"("id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_uploads" ADD CONSTRAINT "payroll_uploads_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_uploads" ADD CONSTRAINT "payroll_uploads_employer_same_tenant_fk" FOREIGN KEY ("employer_id","broker_id") REFERENCES "public"."employers"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payroll_lines_employer_period_idx" ON "payroll_lines" USING btree ("broker_id","employer_id","period_end");--> statement-breakpoint
CREATE INDEX "payroll_lines_employee_idx" ON "payroll_lines" USING btree ("broker_id","employee_id","period_start");--> statement-breakpoint
CREATE INDEX "payroll_lines_upload_idx" ON "payroll_lines" USING btree ("broker_id","upload_id");--> statement-breakpoint
CREATE INDEX "payroll_uploads_employer_idx" ON "payroll_uploads" USING btree ("broker_id","employer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payroll_uploads_same_file_once_key" ON "payroll_uploads" USING btree ("broker_id","employer_id","file_sha256") WHERE "payroll_uploads"."status" = 'succeeded';--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). No new role:
-- roles are cluster-wide (docs/decisions.md, "Documents (issue 16)"). Only the tenant's own
-- runtime role reaches the payroll: no platform action reads it (contracts/policy.ts), and
-- DELETE is granted because an upload's deletion erases its lines and the employees only it
-- named (docs/decisions.md, "Auto-enrolment readiness (issue 20)").
GRANT SELECT, INSERT, UPDATE, DELETE ON payroll_uploads, payroll_employees, payroll_lines TO pension_app;--> statement-breakpoint
ALTER TABLE payroll_uploads ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_uploads FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_employees ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_employees FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_lines ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_lines FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON payroll_uploads TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY tenant_isolation ON payroll_employees TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY tenant_isolation ON payroll_lines TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
