-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0139-dora-ict-incidents.md, "Reminders"): each reminder of a major ICT
-- incident's report coming due sent, once, and the outbox's new kind of e-mail.
CREATE TABLE "ict_incident_reminders" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"incident_id" text NOT NULL,
	"deadline_kind" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"stage" text NOT NULL,
	"recipient_kind" text NOT NULL,
	"recipient_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ict_incident_reminders_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "ict_incident_reminders_deadline_kind" CHECK ("ict_incident_reminders"."deadline_kind" in ('initial', 'intermediate', 'intermediate_update', 'final', 'reclassified')),
	CONSTRAINT "ict_incident_reminders_stage_known" CHECK ("ict_incident_reminders"."stage" in ('hours_24', 'hours_2', 'minutes_30')),
	CONSTRAINT "ict_incident_reminders_recipient_kind" CHECK ("ict_incident_reminders"."recipient_kind" in ('user', 'trustee'))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "ict_incident_reminders" ADD CONSTRAINT "ict_incident_reminders_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ict_incident_reminders" ADD CONSTRAINT "ict_incident_reminders_incident_fk" FOREIGN KEY ("broker_id","incident_id") REFERENCES "public"."ict_incidents"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ict_incident_reminders_once" ON "ict_incident_reminders" USING btree ("broker_id","incident_id","deadline_kind","due_at","stage","recipient_kind","recipient_id");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder','second_factor_changed','new_browser_signin','data_protection_reminder','benefit_statement_issued','ict_incident_reminder'));--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating;
-- docs/decisions/0139-dora-ict-incidents.md). The reminders sent only grow. The scheduler's role
-- reads, of the register, only what its clocks are computed from: never an incident's title,
-- description or root cause.
GRANT SELECT ON ict_incident_reminders TO pension_app, pension_platform;--> statement-breakpoint
GRANT SELECT, INSERT ON ict_incident_reminders TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (broker_id, id, scheme_ids, became_aware_at, classified_major_at, reclassified_at, services_recovered_at) ON ict_incidents TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (broker_id, incident_id, kind, submitted_at) ON ict_incident_reports TO pension_scheduler;--> statement-breakpoint
ALTER TABLE ict_incident_reminders ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ict_incident_reminders FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ict_incident_reminders TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON ict_incident_reminders TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON ict_incident_reminders FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
CREATE POLICY scheduler_record ON ict_incident_reminders FOR INSERT TO pension_scheduler WITH CHECK (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON ict_incidents FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON ict_incident_reports FOR SELECT TO pension_scheduler USING (true);
