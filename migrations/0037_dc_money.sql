-- drizzle-kit's output, with the hand-written parts marked (docs/decisions/0127-dc-money.md): the
-- prices of a scheme's funds, every movement of a member's units and the switches members ask for;
-- a fund's annual charge, a scheme's default fund, the day a contribution and a correction were
-- received.
CREATE TABLE "fund_prices" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"fund_id" text NOT NULL,
	"priced_on" date NOT NULL,
	"price" numeric(10, 6) NOT NULL,
	"corrects" text,
	"superseded_at" timestamp (3) with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "fund_prices_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "fund_prices_price_range" CHECK ("fund_prices"."price" > 0 and "fund_prices"."price" < 10000)
);
--> statement-breakpoint
CREATE TABLE "fund_switches" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"requested_on" date NOT NULL,
	"status" text NOT NULL,
	"targets" jsonb NOT NULL,
	"completed_on" date,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "fund_switches_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "fund_switches_status_known" CHECK ("fund_switches"."status" in ('pending','completed')),
	CONSTRAINT "fund_switches_completed_on" CHECK (("fund_switches"."status" = 'completed') = ("fund_switches"."completed_on" is not null)),
	CONSTRAINT "fund_switches_targets_list" CHECK (jsonb_typeof("fund_switches"."targets") = 'array')
);
--> statement-breakpoint
CREATE TABLE "member_transactions" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"member_id" text NOT NULL,
	"fund_id" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"dealt_on" date NOT NULL,
	"units" numeric(18, 6) NOT NULL,
	"price" numeric(10, 6) NOT NULL,
	"price_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"voided_at" timestamp (3) with time zone,
	"voided_by" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "member_transactions_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "member_transactions_kind_known" CHECK ("member_transactions"."kind" in ('contribution','switch_out','switch_in','charge','transfer_in','transfer_out','refund','benefit')),
	CONSTRAINT "member_transactions_source_length" CHECK (char_length("member_transactions"."source") between 1 and 100),
	CONSTRAINT "member_transactions_price_range" CHECK ("member_transactions"."price" > 0 and "member_transactions"."price" < 10000)
);
--> statement-breakpoint
-- hand-changed: the day received is filled in before it is required. Money recorded so far was
-- received the day it was recorded, in Ireland.
ALTER TABLE "contribution_adjustments" ADD COLUMN "received_on" date;--> statement-breakpoint
ALTER TABLE "contributions" ADD COLUMN "received_on" date;--> statement-breakpoint
UPDATE "contribution_adjustments" SET "received_on" = ("created_at" AT TIME ZONE 'Europe/Dublin')::date;--> statement-breakpoint
UPDATE "contributions" SET "received_on" = ("created_at" AT TIME ZONE 'Europe/Dublin')::date;--> statement-breakpoint
ALTER TABLE "contribution_adjustments" ALTER COLUMN "received_on" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contributions" ALTER COLUMN "received_on" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "funds" ADD COLUMN "annual_charge_basis_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "default_fund_id" text;--> statement-breakpoint
ALTER TABLE "fund_prices" ADD CONSTRAINT "fund_prices_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_prices" ADD CONSTRAINT "fund_prices_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_prices" ADD CONSTRAINT "fund_prices_fund_of_scheme_fk" FOREIGN KEY ("fund_id","scheme_id","broker_id") REFERENCES "public"."funds"("id","scheme_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_prices" ADD CONSTRAINT "fund_prices_corrects_fk" FOREIGN KEY ("broker_id","corrects") REFERENCES "public"."fund_prices"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_switches" ADD CONSTRAINT "fund_switches_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_switches" ADD CONSTRAINT "fund_switches_member_same_tenant_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_transactions" ADD CONSTRAINT "member_transactions_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_transactions" ADD CONSTRAINT "member_transactions_member_same_tenant_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_transactions" ADD CONSTRAINT "member_transactions_fund_of_scheme_fk" FOREIGN KEY ("fund_id","scheme_id","broker_id") REFERENCES "public"."funds"("id","scheme_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_transactions" ADD CONSTRAINT "member_transactions_price_fk" FOREIGN KEY ("broker_id","price_id") REFERENCES "public"."fund_prices"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fund_prices_one_in_force_key" ON "fund_prices" USING btree ("broker_id","fund_id","priced_on") WHERE "fund_prices"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "fund_prices_scheme_idx" ON "fund_prices" USING btree ("broker_id","scheme_id","priced_on");--> statement-breakpoint
CREATE UNIQUE INDEX "fund_switches_one_pending_key" ON "fund_switches" USING btree ("broker_id","member_id") WHERE "fund_switches"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "fund_switches_member_idx" ON "fund_switches" USING btree ("broker_id","member_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fund_switches_scheme_pending_idx" ON "fund_switches" USING btree ("broker_id","scheme_id") WHERE "fund_switches"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "member_transactions_once_key" ON "member_transactions" USING btree ("broker_id","member_id","fund_id","kind","source") WHERE "member_transactions"."voided_at" is null;--> statement-breakpoint
CREATE INDEX "member_transactions_member_idx" ON "member_transactions" USING btree ("broker_id","member_id","dealt_on","id");--> statement-breakpoint
CREATE INDEX "member_transactions_price_idx" ON "member_transactions" USING btree ("broker_id","price_id");--> statement-breakpoint
CREATE INDEX "member_transactions_scheme_fund_idx" ON "member_transactions" USING btree ("broker_id","scheme_id","fund_id","dealt_on");--> statement-breakpoint
ALTER TABLE "funds" ADD CONSTRAINT "funds_annual_charge_range" CHECK ("funds"."annual_charge_basis_points" between 0 and 500);--> statement-breakpoint
-- hand-written: a scheme's default fund is one of its own funds (the table files cannot say so:
-- the funds' table refers to the schemes', src/server/platform/db/tables/schemes.tables.ts).
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_default_fund_of_scheme_fk" FOREIGN KEY ("default_fund_id","id","broker_id") REFERENCES "public"."funds"("id","scheme_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). A price is
-- superseded by its correction, a movement only ever voided, a switch completed: those columns
-- alone are updated. SuperAdmin only reads them.
GRANT SELECT, INSERT ON fund_prices, member_transactions, fund_switches TO pension_app;--> statement-breakpoint
GRANT UPDATE (superseded_at) ON fund_prices TO pension_app;--> statement-breakpoint
GRANT UPDATE (voided_at, voided_by) ON member_transactions TO pension_app;--> statement-breakpoint
GRANT UPDATE (status, completed_on, updated_at) ON fund_switches TO pension_app;--> statement-breakpoint
GRANT SELECT ON fund_prices, member_transactions, fund_switches TO pension_platform;--> statement-breakpoint
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['fund_prices','member_transactions','fund_switches'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant())', tenant_table);
    EXECUTE format('CREATE POLICY platform_access ON %I TO pension_platform USING (true) WITH CHECK (true)', tenant_table);
  END LOOP;
END $$;
