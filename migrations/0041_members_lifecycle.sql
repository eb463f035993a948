CREATE TABLE "member_dependants" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"name" text NOT NULL,
	"relationship" text NOT NULL,
	"phone" text,
	"email" text,
	"address" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "member_dependants_pkey" PRIMARY KEY("broker_id","id")
);
--> statement-breakpoint
CREATE TABLE "member_payouts" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"change_id" text NOT NULL,
	"kind" text NOT NULL,
	"from_on" date NOT NULL,
	"status" text NOT NULL,
	"value_at_date_cents" bigint,
	"paid_cents" bigint,
	"paid_on" date,
	"refund" jsonb,
	"voided_at" timestamp (3) with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "member_payouts_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "member_payouts_kind_known" CHECK ("member_payouts"."kind" in ('refund','transfer_out','benefit')),
	CONSTRAINT "member_payouts_status_known" CHECK ("member_payouts"."status" in ('pending','paid')),
	CONSTRAINT "member_payouts_paid_shape" CHECK (("member_payouts"."status" = 'paid') = ("member_payouts"."paid_on" is not null and "member_payouts"."paid_cents" is not null))
);
--> statement-breakpoint
CREATE TABLE "member_status_changes" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"effective_on" date NOT NULL,
	"receiving_arrangement" text,
	"reason" text,
	"corrects_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "member_status_changes_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "member_status_changes_kind_known" CHECK ("member_status_changes"."kind" in ('left','rejoined','preserved','refunded','transferred_out','retired','died','corrected')),
	CONSTRAINT "member_status_changes_correction_shape" CHECK (("member_status_changes"."kind" = 'corrected') = ("member_status_changes"."corrects_id" is not null and "member_status_changes"."reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "fund_switches" DROP CONSTRAINT "fund_switches_status_known";--> statement-breakpoint
ALTER TABLE "members" DROP CONSTRAINT "members_status_known";--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "status_on" date;--> statement-breakpoint
-- hand-written: "left" said nothing of what the member kept; a member who left is deferred until a
-- refund or a transfer is recorded (docs/decisions/0135-members-lifecycle.md).
UPDATE "members" SET "status" = 'deferred' WHERE "status" = 'left';--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "refunds_allowed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "member_dependants" ADD CONSTRAINT "member_dependants_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_dependants" ADD CONSTRAINT "member_dependants_member_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_payouts" ADD CONSTRAINT "member_payouts_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_payouts" ADD CONSTRAINT "member_payouts_member_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status_changes" ADD CONSTRAINT "member_status_changes_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_status_changes" ADD CONSTRAINT "member_status_changes_member_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_dependants_member_idx" ON "member_dependants" USING btree ("broker_id","member_id");--> statement-breakpoint
CREATE INDEX "member_payouts_member_idx" ON "member_payouts" USING btree ("broker_id","member_id");--> statement-breakpoint
CREATE INDEX "member_payouts_scheme_pending_idx" ON "member_payouts" USING btree ("broker_id","scheme_id") WHERE "member_payouts"."status" = 'pending' and "member_payouts"."voided_at" is null;--> statement-breakpoint
CREATE INDEX "member_status_changes_member_idx" ON "member_status_changes" USING btree ("broker_id","member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_status_changes_corrects_key" ON "member_status_changes" USING btree ("broker_id","corrects_id") WHERE "member_status_changes"."corrects_id" is not null;--> statement-breakpoint
ALTER TABLE "fund_switches" ADD CONSTRAINT "fund_switches_status_known" CHECK ("fund_switches"."status" in ('pending','completed','cancelled'));--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_status_known" CHECK ("members"."status" in ('active','deferred','retired','transferred_out','refunded','deceased'));;--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). A change of status
-- and a dependant are never updated; a payout only as it is paid or voided. SuperAdmin only reads.
GRANT SELECT, INSERT ON member_status_changes, member_payouts, member_dependants TO pension_app;--> statement-breakpoint
GRANT UPDATE (status, paid_cents, paid_on, voided_at, updated_at) ON member_payouts TO pension_app;--> statement-breakpoint
GRANT SELECT ON member_status_changes, member_payouts, member_dependants TO pension_platform;--> statement-breakpoint
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['member_status_changes','member_payouts','member_dependants'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant())', tenant_table);
    EXECUTE format('CREATE POLICY platform_access ON %I TO pension_platform USING (true) WITH CHECK (true)', tenant_table);
  END LOOP;
END $$;
