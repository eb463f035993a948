-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0139-dora-ict-incidents.md): a firm's register of ICT incidents and the reports of
-- a major one (DORA Art. 17 and 19), and the platform's own record of an incident that reached firms.
CREATE TABLE "ict_incident_reports" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"incident_id" text NOT NULL,
	"kind" text NOT NULL,
	"submitted_at" timestamp (3) with time zone NOT NULL,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ict_incident_reports_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "ict_incident_reports_kind" CHECK ("ict_incident_reports"."kind" in ('initial', 'intermediate', 'final', 'reclassified'))
);
--> statement-breakpoint
CREATE TABLE "ict_incidents" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"platform_incident_id" text,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"detected_at" timestamp (3) with time zone NOT NULL,
	"became_aware_at" timestamp (3) with time zone NOT NULL,
	"services_affected" text[] NOT NULL,
	"scheme_ids" text[] NOT NULL,
	"recurrence_of" text,
	"root_cause" text,
	"services_recovered_at" timestamp (3) with time zone,
	"criteria" jsonb,
	"major" boolean,
	"classified_at" timestamp (3) with time zone,
	"classified_major_at" timestamp (3) with time zone,
	"reclassified_at" timestamp (3) with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ict_incidents_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "ict_incidents_title_length" CHECK (char_length("ict_incidents"."title") between 1 and 200),
	CONSTRAINT "ict_incidents_detected_before_aware" CHECK ("ict_incidents"."detected_at" <= "ict_incidents"."became_aware_at"),
	CONSTRAINT "ict_incidents_classified_whole" CHECK (("ict_incidents"."classified_at" is null) = ("ict_incidents"."major" is null) and ("ict_incidents"."classified_at" is null) = ("ict_incidents"."criteria" is null)),
	CONSTRAINT "ict_incidents_reclassified_after_major" CHECK ("ict_incidents"."reclassified_at" is null or ("ict_incidents"."classified_major_at" is not null and "ict_incidents"."major" = false))
);
--> statement-breakpoint
CREATE TABLE "platform_ict_incidents" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"detected_at" timestamp (3) with time zone NOT NULL,
	"became_aware_at" timestamp (3) with time zone NOT NULL,
	"services_affected" text[] NOT NULL,
	"broker_ids" text[] NOT NULL,
	"scheme_ids" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "platform_ict_incidents_title_length" CHECK (char_length("platform_ict_incidents"."title") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "ict_incident_reports" ADD CONSTRAINT "ict_incident_reports_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ict_incident_reports" ADD CONSTRAINT "ict_incident_reports_incident_fk" FOREIGN KEY ("broker_id","incident_id") REFERENCES "public"."ict_incidents"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ict_incidents" ADD CONSTRAINT "ict_incidents_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ict_incidents" ADD CONSTRAINT "ict_incidents_recurrence_of_fk" FOREIGN KEY ("broker_id","recurrence_of") REFERENCES "public"."ict_incidents"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ict_incident_reports_incident_idx" ON "ict_incident_reports" USING btree ("broker_id","incident_id");--> statement-breakpoint
CREATE INDEX "ict_incidents_recorded_idx" ON "ict_incidents" USING btree ("broker_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ict_incidents_recurrence_idx" ON "ict_incidents" USING btree ("broker_id","recurrence_of");--> statement-breakpoint
CREATE INDEX "platform_ict_incidents_recorded_idx" ON "platform_ict_incidents" USING btree ("created_at","id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). An incident and its
-- reports are never deleted: the register is the record DORA Art. 17 asks for. Platform staff
-- record an incident of the platform into each firm it reached, so they insert there too.
GRANT SELECT, INSERT, UPDATE ON ict_incidents TO pension_app;--> statement-breakpoint
GRANT SELECT, INSERT ON ict_incident_reports TO pension_app;--> statement-breakpoint
GRANT SELECT, INSERT ON ict_incidents, ict_incident_reports, platform_ict_incidents TO pension_platform;--> statement-breakpoint
ALTER TABLE ict_incidents ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ict_incidents FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ict_incidents TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON ict_incidents TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE ict_incident_reports ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ict_incident_reports FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ict_incident_reports TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON ict_incident_reports TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE platform_ict_incidents ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE platform_ict_incidents FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY platform_access ON platform_ict_incidents TO pension_platform USING (true) WITH CHECK (true);
