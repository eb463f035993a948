-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0147-data-protection-reminders.md): each reminder of a data-subject request or
-- a personal-data breach sent, once, and the outbox's new kind of e-mail.
CREATE TABLE "data_protection_reminders" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"data_request_id" text,
	"data_breach_id" text,
	"due_on" date,
	"stage" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "data_protection_reminders_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "data_protection_reminders_one_subject" CHECK (("data_protection_reminders"."data_request_id" is null) <> ("data_protection_reminders"."data_breach_id" is null) and ("data_protection_reminders"."data_request_id" is null) = ("data_protection_reminders"."due_on" is null)),
	CONSTRAINT "data_protection_reminders_stage_known" CHECK ("data_protection_reminders"."stage" in ('before_7','before_2','overdue','hours_48','hours_12'))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "data_protection_reminders" ADD CONSTRAINT "data_protection_reminders_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_protection_reminders" ADD CONSTRAINT "data_protection_reminders_request_same_tenant_fk" FOREIGN KEY ("broker_id","data_request_id") REFERENCES "public"."data_requests"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_protection_reminders" ADD CONSTRAINT "data_protection_reminders_breach_same_tenant_fk" FOREIGN KEY ("broker_id","data_breach_id") REFERENCES "public"."data_breaches"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_protection_reminders" ADD CONSTRAINT "data_protection_reminders_user_same_tenant_fk" FOREIGN KEY ("user_id","broker_id") REFERENCES "public"."users"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_protection_reminders_request_once" ON "data_protection_reminders" USING btree ("broker_id","data_request_id","due_on","stage","user_id") WHERE "data_protection_reminders"."data_request_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "data_protection_reminders_breach_once" ON "data_protection_reminders" USING btree ("broker_id","data_breach_id","stage","user_id") WHERE "data_protection_reminders"."data_breach_id" is not null;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder','second_factor_changed','new_browser_signin','data_protection_reminder'));--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating;
-- docs/decisions/0147-data-protection-reminders.md). The reminders sent only grow. The scheduler's
-- role reads, of the registers, only what says whether and when a reminder is due: never a
-- member, a breach's words, or a request's free text.
GRANT SELECT ON data_protection_reminders TO pension_app, pension_platform;--> statement-breakpoint
GRANT SELECT, INSERT ON data_protection_reminders TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (broker_id, id, kind, status, due_on) ON data_requests TO pension_scheduler;--> statement-breakpoint
GRANT SELECT (broker_id, id, status, risk_to_people, became_aware_at) ON data_breaches TO pension_scheduler;--> statement-breakpoint
ALTER TABLE data_protection_reminders ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE data_protection_reminders FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON data_protection_reminders TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON data_protection_reminders TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON data_protection_reminders FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
CREATE POLICY scheduler_record ON data_protection_reminders FOR INSERT TO pension_scheduler WITH CHECK (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON data_requests FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON data_breaches FOR SELECT TO pension_scheduler USING (true);
