CREATE TABLE "ai_drafts" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"kind" text NOT NULL,
	"policy_kind" text,
	"status" text NOT NULL,
	"generated_by" text NOT NULL,
	"generated_content" text NOT NULL,
	"content" text NOT NULL,
	"created_by" text NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp (3) with time zone,
	"approved_by" text,
	"approved_at" timestamp (3) with time zone,
	"approved_diff" jsonb,
	"issued_by" text,
	"issued_at" timestamp (3) with time zone,
	"issued_policy_id" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ai_drafts_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "ai_drafts_kind_known" CHECK ("ai_drafts"."kind" in ('written_policy','ora_outline','kfh_appointment_letter')),
	CONSTRAINT "ai_drafts_policy_kind_with_written_policy" CHECK (("ai_drafts"."kind" = 'written_policy') = ("ai_drafts"."policy_kind" is not null)),
	CONSTRAINT "ai_drafts_status_known" CHECK ("ai_drafts"."status" in ('draft','reviewed','approved','issued')),
	CONSTRAINT "ai_drafts_generated_by_known" CHECK ("ai_drafts"."generated_by" in ('ai','template')),
	CONSTRAINT "ai_drafts_content_length" CHECK (char_length("ai_drafts"."content") between 1 and 100000),
	CONSTRAINT "ai_drafts_approved_recorded" CHECK (("ai_drafts"."status" in ('approved','issued')) = ("ai_drafts"."approved_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "ai_settings" (
	"broker_id" text NOT NULL,
	"api_key_sealed" text,
	"monthly_request_limit" integer,
	"monthly_token_limit" bigint,
	"updated_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_settings_pkey" PRIMARY KEY("broker_id"),
	CONSTRAINT "ai_settings_limits_not_negative" CHECK (coalesce("ai_settings"."monthly_request_limit", 0) >= 0 and coalesce("ai_settings"."monthly_token_limit", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "ai_usage" (
	"broker_id" text NOT NULL,
	"month" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_usage_pkey" PRIMARY KEY("broker_id","month"),
	CONSTRAINT "ai_usage_month_shape" CHECK ("ai_usage"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
ALTER TABLE "ai_drafts" ADD CONSTRAINT "ai_drafts_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_drafts" ADD CONSTRAINT "ai_drafts_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_drafts" ADD CONSTRAINT "ai_drafts_issued_policy_same_tenant_fk" FOREIGN KEY ("broker_id","issued_policy_id") REFERENCES "public"."written_policies"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD CONSTRAINT "ai_settings_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_drafts_scheme_idx" ON "ai_drafts" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). No new role: roles
-- are cluster-wide (docs/decisions.md, "AI provider, chat and drafting (issue 17)"). Only the
-- tenant's own people use these tables (no AI action is SuperAdmin's, contracts/policy.ts), so
-- only pension_app is granted them. Settings are set and replaced; usage counters only grow;
-- drafts move through their lifecycle and are never removed.
GRANT SELECT, INSERT, UPDATE ON ai_settings, ai_usage, ai_drafts TO pension_app;--> statement-breakpoint
ALTER TABLE ai_settings ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ai_settings FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ai_settings TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
ALTER TABLE ai_usage ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ai_usage FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ai_usage TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
ALTER TABLE ai_drafts ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE ai_drafts FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON ai_drafts TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
