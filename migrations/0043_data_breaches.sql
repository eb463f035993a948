-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0138-personal-data-breaches.md): a firm's register of personal-data breaches,
-- every breach documented whether notified or not (GDPR Art. 33(5)).
CREATE TABLE "data_breaches" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"occurred_at" timestamp (3) with time zone,
	"became_aware_at" timestamp (3) with time zone NOT NULL,
	"categories_of_data" text[] NOT NULL,
	"approximate_members" integer NOT NULL,
	"scheme_ids" text[] NOT NULL,
	"risk_to_people" text NOT NULL,
	"status" text NOT NULL,
	"dpc_notified_at" timestamp (3) with time zone,
	"dpc_reference" text,
	"delay_reason" text,
	"members_told_at" timestamp (3) with time zone,
	"members_told_how" text,
	"closed_at" timestamp (3) with time zone,
	"outcome" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "data_breaches_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "data_breaches_risk" CHECK ("data_breaches"."risk_to_people" in ('unlikely', 'risk', 'high')),
	CONSTRAINT "data_breaches_status" CHECK ("data_breaches"."status" in ('open', 'notified', 'closed')),
	CONSTRAINT "data_breaches_members_count" CHECK ("data_breaches"."approximate_members" >= 0),
	CONSTRAINT "data_breaches_occurred_before_aware" CHECK ("data_breaches"."occurred_at" is null or "data_breaches"."occurred_at" <= "data_breaches"."became_aware_at"),
	CONSTRAINT "data_breaches_title_length" CHECK (char_length("data_breaches"."title") between 1 and 200),
	CONSTRAINT "data_breaches_closed_whole" CHECK (("data_breaches"."closed_at" is null) = ("data_breaches"."outcome" is null) and ("data_breaches"."closed_at" is null) = ("data_breaches"."status" <> 'closed')),
	CONSTRAINT "data_breaches_told_whole" CHECK (("data_breaches"."members_told_at" is null) = ("data_breaches"."members_told_how" is null))
);
--> statement-breakpoint
ALTER TABLE "data_breaches" ADD CONSTRAINT "data_breaches_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_breaches_recorded_idx" ON "data_breaches" USING btree ("broker_id","created_at","id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). A breach is never
-- deleted: the register is the record Art. 33(5) asks for. SuperAdmin only reads it.
GRANT SELECT, INSERT, UPDATE ON data_breaches TO pension_app;--> statement-breakpoint
GRANT SELECT ON data_breaches TO pension_platform;--> statement-breakpoint
ALTER TABLE data_breaches ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE data_breaches FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON data_breaches TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON data_breaches TO pension_platform USING (true) WITH CHECK (true);
