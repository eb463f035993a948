-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0136-contribution-remittance.md): the register of what employers remitted for
-- each month's deductions, never edited; a receipt recorded by mistake is voided and kept.
CREATE TABLE "remittance_receipts" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"month" text NOT NULL,
	"received_on" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reference" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"voided_at" timestamp (3) with time zone,
	"voided_by" text,
	"void_reason" text,
	CONSTRAINT "remittance_receipts_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "remittance_receipts_month_shape" CHECK ("remittance_receipts"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "remittance_receipts_amount_positive" CHECK ("remittance_receipts"."amount_cents" > 0),
	CONSTRAINT "remittance_receipts_reference_length" CHECK ("remittance_receipts"."reference" is null or char_length("remittance_receipts"."reference") between 1 and 200),
	CONSTRAINT "remittance_receipts_voided_whole" CHECK (("remittance_receipts"."voided_at" is null) = ("remittance_receipts"."voided_by" is null) and ("remittance_receipts"."voided_at" is null) = ("remittance_receipts"."void_reason" is null)),
	CONSTRAINT "remittance_receipts_void_reason_length" CHECK ("remittance_receipts"."void_reason" is null or char_length("remittance_receipts"."void_reason") between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "remittance_receipts" ADD CONSTRAINT "remittance_receipts_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remittance_receipts" ADD CONSTRAINT "remittance_receipts_employer_same_tenant_fk" FOREIGN KEY ("employer_id","broker_id") REFERENCES "public"."employers"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remittance_receipts_employer_month_idx" ON "remittance_receipts" USING btree ("broker_id","employer_id","month");--> statement-breakpoint
CREATE INDEX "remittance_receipts_employer_received_idx" ON "remittance_receipts" USING btree ("broker_id","employer_id","received_on","id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). A receipt is only
-- ever voided: those columns alone are updated. SuperAdmin only reads them.
GRANT SELECT, INSERT ON remittance_receipts TO pension_app;--> statement-breakpoint
GRANT UPDATE (voided_at, voided_by, void_reason) ON remittance_receipts TO pension_app;--> statement-breakpoint
GRANT SELECT ON remittance_receipts TO pension_platform;--> statement-breakpoint
-- The reminders job reads what each employer's payroll says was deducted and what it remitted
-- (migrations/0015_governance.sql): the amounts, months and kinds of contributions and their
-- corrections, which member and scheme each is of, and the receipts; never a reason or a name.
GRANT SELECT ON remittance_receipts TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (broker_id, id, employer_id, scheme_id, member_id, period, kind, amount_cents) ON contributions TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (broker_id, contribution_id, delta_cents) ON contribution_adjustments TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (id) ON members TO pension_scheduler;--> statement-breakpoint
ALTER TABLE remittance_receipts ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE remittance_receipts FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON remittance_receipts TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON remittance_receipts TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['remittance_receipts','contributions','contribution_adjustments'] LOOP
    EXECUTE format('CREATE POLICY scheduler_read ON %I FOR SELECT TO pension_scheduler USING (true)', tenant_table);
  END LOOP;
END $$;
