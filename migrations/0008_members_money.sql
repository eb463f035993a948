ALTER TABLE "schemes" ADD CONSTRAINT "schemes_id_employer_broker_key" UNIQUE("id","employer_id","broker_id");--> statement-breakpoint
CREATE TABLE "contribution_adjustments" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"contribution_id" text NOT NULL,
	"delta_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contribution_adjustments_delta_nonzero" CHECK ("contribution_adjustments"."delta_cents" <> 0),
	CONSTRAINT "contribution_adjustments_reason_length" CHECK (char_length("contribution_adjustments"."reason") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "contributions" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"period" text NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"import_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contributions_member_period_kind_key" UNIQUE("member_id","period","kind"),
	CONSTRAINT "contributions_id_broker_key" UNIQUE("id","broker_id"),
	CONSTRAINT "contributions_period_shape" CHECK ("contributions"."period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "contributions_kind_known" CHECK ("contributions"."kind" in ('employee','employer','avc')),
	CONSTRAINT "contributions_amount_not_negative" CHECK ("contributions"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "fund_allocation_lines" (
	"allocation_id" text NOT NULL,
	"broker_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"fund_id" text NOT NULL,
	"percent" integer NOT NULL,
	CONSTRAINT "fund_allocation_lines_allocation_id_fund_id_pk" PRIMARY KEY("allocation_id","fund_id"),
	CONSTRAINT "fund_allocation_lines_percent_range" CHECK ("fund_allocation_lines"."percent" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "fund_allocations" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"effective_from" date NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_allocations_id_scheme_broker_key" UNIQUE("id","scheme_id","broker_id")
);
--> statement-breakpoint
CREATE TABLE "funds" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"name" text NOT NULL,
	"isin" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp (3) with time zone,
	CONSTRAINT "funds_id_scheme_key" UNIQUE("id","scheme_id"),
	CONSTRAINT "funds_scheme_name_key" UNIQUE("scheme_id","name"),
	CONSTRAINT "funds_name_length" CHECK (char_length("funds"."name") between 1 and 200),
	CONSTRAINT "funds_isin_shape" CHECK ("funds"."isin" is null or "funds"."isin" ~ '^[A-Z]{2}[A-Z0-9]{9}[0-9]$')
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"file_sha256" text,
	"file_bytes" bigint DEFAULT 0 NOT NULL,
	"rows_read" bigint DEFAULT 0 NOT NULL,
	"rows_written" bigint DEFAULT 0 NOT NULL,
	"issue_count" bigint DEFAULT 0 NOT NULL,
	"issues" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "imports_kind_known" CHECK ("imports"."kind" in ('members','contributions')),
	CONSTRAINT "imports_status_known" CHECK ("imports"."status" in ('running','succeeded','rejected','failed'))
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"email" text,
	"address" text,
	"date_joined" date NOT NULL,
	"salary_cents" bigint NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"pps_encrypted" text NOT NULL,
	"pps_lookup" text NOT NULL,
	"pps_key_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "members_id_broker_id_key" UNIQUE("id","broker_id"),
	CONSTRAINT "members_id_employer_broker_key" UNIQUE("id","employer_id","broker_id"),
	CONSTRAINT "members_id_scheme_employer_broker_key" UNIQUE("id","scheme_id","employer_id","broker_id"),
	CONSTRAINT "members_status_known" CHECK ("members"."status" in ('active','deferred','retired','left')),
	CONSTRAINT "members_salary_not_negative" CHECK ("members"."salary_cents" >= 0),
	CONSTRAINT "members_pps_lookup_shape" CHECK ("members"."pps_lookup" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "members_names_present" CHECK (char_length("members"."first_name") between 1 and 100 and char_length("members"."last_name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "member_id" text;--> statement-breakpoint
ALTER TABLE "contribution_adjustments" ADD CONSTRAINT "contribution_adjustments_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contribution_adjustments" ADD CONSTRAINT "contribution_adjustments_contribution_fk" FOREIGN KEY ("contribution_id","broker_id") REFERENCES "public"."contributions"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributions" ADD CONSTRAINT "contributions_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contributions" ADD CONSTRAINT "contributions_member_same_tenant_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_allocation_lines" ADD CONSTRAINT "fund_allocation_lines_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_allocation_lines" ADD CONSTRAINT "fund_allocation_lines_allocation_fk" FOREIGN KEY ("allocation_id","scheme_id","broker_id") REFERENCES "public"."fund_allocations"("id","scheme_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_allocation_lines" ADD CONSTRAINT "fund_allocation_lines_fund_of_scheme_fk" FOREIGN KEY ("fund_id","scheme_id") REFERENCES "public"."funds"("id","scheme_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_allocations" ADD CONSTRAINT "fund_allocations_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_allocations" ADD CONSTRAINT "fund_allocations_member_same_tenant_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funds" ADD CONSTRAINT "funds_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funds" ADD CONSTRAINT "funds_scheme_same_tenant_fk" FOREIGN KEY ("scheme_id","employer_id","broker_id") REFERENCES "public"."schemes"("id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_scheme_same_tenant_fk" FOREIGN KEY ("scheme_id","employer_id","broker_id") REFERENCES "public"."schemes"("id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_scheme_same_tenant_fk" FOREIGN KEY ("scheme_id","employer_id","broker_id") REFERENCES "public"."schemes"("id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contribution_adjustments_contribution_idx" ON "contribution_adjustments" USING btree ("contribution_id");--> statement-breakpoint
CREATE INDEX "contributions_scheme_period_idx" ON "contributions" USING btree ("scheme_id","period");--> statement-breakpoint
CREATE INDEX "fund_allocations_member_idx" ON "fund_allocations" USING btree ("member_id","effective_from","created_at");--> statement-breakpoint
CREATE INDEX "imports_scheme_created_idx" ON "imports" USING btree ("scheme_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "imports_same_file_once_key" ON "imports" USING btree ("scheme_id","kind","file_sha256") WHERE "imports"."status" = 'succeeded';--> statement-breakpoint
CREATE UNIQUE INDEX "members_scheme_pps_key" ON "members" USING btree ("scheme_id","pps_lookup") WHERE "members"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "members_broker_pps_idx" ON "members" USING btree ("broker_id","pps_lookup");--> statement-breakpoint
CREATE INDEX "members_scheme_created_idx" ON "members" USING btree ("scheme_id","created_at","id");--> statement-breakpoint
CREATE INDEX "members_broker_created_idx" ON "members" USING btree ("broker_id","created_at","id");--> statement-breakpoint
CREATE INDEX "members_pps_key_idx" ON "members" USING btree ("pps_key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_member_id_key" ON "users" USING btree ("member_id") WHERE "users"."member_id" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_member_record_for_members" CHECK (("users"."role" = 'Member') = ("users"."member_id" is not null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_member_same_employer_fk" FOREIGN KEY ("member_id","employer_id","broker_id") REFERENCES "public"."members"("id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Members and imports change; the money history only grows: contributions, their adjustments and
-- fund choices are inserted and never updated, so no runtime role may update or delete them.
GRANT SELECT, INSERT, UPDATE ON members, funds, imports TO pension_app, pension_platform;--> statement-breakpoint
GRANT SELECT, INSERT ON contributions, contribution_adjustments, fund_allocations, fund_allocation_lines TO pension_app, pension_platform;--> statement-breakpoint
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['members','funds','fund_allocations','fund_allocation_lines','contributions','contribution_adjustments','imports'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant())', tenant_table);
    EXECUTE format('CREATE POLICY platform_access ON %I TO pension_platform USING (true) WITH CHECK (true)', tenant_table);
  END LOOP;
END $$;
