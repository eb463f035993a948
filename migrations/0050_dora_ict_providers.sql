-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0139-dora-ict-incidents.md): a firm's register of its other ICT providers (DORA
-- Art. 28(3)).
CREATE TABLE "ict_providers" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"identifier" text,
	"identifier_type" text,
	"country" text NOT NULL,
	"service_type" text NOT NULL,
	"contract_reference" text NOT NULL,
	"started_on" date NOT NULL,
	"ended_on" date,
	"supports_critical_function" boolean NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ict_providers_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "ict_providers_name_length" CHECK (char_length("ict_providers"."name") between 1 and 200),
	CONSTRAINT "ict_providers_service_type" CHECK ("ict_providers"."service_type" ~ '^S(0[1-9]|1[0-9])$'),
	CONSTRAINT "ict_providers_country" CHECK ("ict_providers"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "ict_providers_identifier_whole" CHECK (("ict_providers"."identifier" is null) = ("ict_providers"."identifier_type" is null)),
	CONSTRAINT "ict_providers_ended_after_start" CHECK ("ict_providers"."ended_on" is null or "ict_providers"."ended_on" >= "ict_providers"."started_on")
);
--> statement-breakpoint
ALTER TABLE "ict_providers" ADD CONSTRAINT "ict_providers_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ict_providers_recorded_idx" ON "ict_providers" USING btree ("broker_id","created_at","id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). A provider is
-- never deleted: an arrangement that ends is given its end date. SuperAdmin only reads it.
GRANT SELECT, INSERT, UPDATE ON ict_providers TO pension_app;--> statement-breakpoint
GRANT SELECT ON ict_providers TO pension_platform;--> statement-breakpoint
ALTER TABLE ict_providers ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ict_providers FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ict_providers TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON ict_providers TO pension_platform USING (true) WITH CHECK (true);
