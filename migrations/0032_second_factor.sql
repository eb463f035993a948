-- drizzle-kit's output, then hand-written SQL after it (re-apply as it stands if this file is
-- ever regenerated): a second factor at sign-in (docs/decisions/0110-second-factor.md,
-- 0111-passkeys.md). An account's authenticator-app secret, its recovery codes and its passkeys,
-- keyed by user, with the user's broker_id (null for a platform account) held equal to the
-- user's by the composite foreign key and used by row-level security as on users. Two kinds of
-- e-mail join the outbox: a change to an account's second factors, and a sign-in from a browser
-- the account has not used before.
CREATE TABLE "user_passkeys" (
	"user_id" text NOT NULL,
	"id" text NOT NULL,
	"broker_id" text,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"name" text NOT NULL,
	"backed_up" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"last_used_at" timestamp (3) with time zone,
	CONSTRAINT "user_passkeys_pkey" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
CREATE TABLE "user_recovery_codes" (
	"user_id" text NOT NULL,
	"id" text NOT NULL,
	"broker_id" text,
	"code_hash" text NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "user_recovery_codes_pkey" PRIMARY KEY("user_id","id"),
	CONSTRAINT "user_recovery_codes_hash_shape" CHECK ("user_recovery_codes"."code_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "user_totp_secrets" (
	"user_id" text NOT NULL,
	"id" text NOT NULL,
	"broker_id" text,
	"secret_sealed" text NOT NULL,
	"key_id" text NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"last_used_step" bigint,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "user_totp_secrets_pkey" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "user_passkeys" ADD CONSTRAINT "user_passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_passkeys" ADD CONSTRAINT "user_passkeys_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_passkeys" ADD CONSTRAINT "user_passkeys_user_same_tenant_fk" FOREIGN KEY ("user_id","broker_id") REFERENCES "public"."users"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_recovery_codes" ADD CONSTRAINT "user_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_recovery_codes" ADD CONSTRAINT "user_recovery_codes_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_recovery_codes" ADD CONSTRAINT "user_recovery_codes_user_same_tenant_fk" FOREIGN KEY ("user_id","broker_id") REFERENCES "public"."users"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_totp_secrets" ADD CONSTRAINT "user_totp_secrets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_totp_secrets" ADD CONSTRAINT "user_totp_secrets_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_totp_secrets" ADD CONSTRAINT "user_totp_secrets_user_same_tenant_fk" FOREIGN KEY ("user_id","broker_id") REFERENCES "public"."users"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_passkeys_credential_key" ON "user_passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_totp_secrets_confirmed_key" ON "user_totp_secrets" USING btree ("user_id") WHERE "user_totp_secrets"."confirmed_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "user_totp_secrets_pending_key" ON "user_totp_secrets" USING btree ("user_id") WHERE "user_totp_secrets"."confirmed_at" is null;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder','second_factor_changed','new_browser_signin'));
--> statement-breakpoint
-- The account's own changes run as its tenant (or as the platform for a SuperAdmin), like
-- changes to users; resets by an administrator likewise.
GRANT SELECT, INSERT, UPDATE, DELETE ON user_totp_secrets, user_recovery_codes, user_passkeys TO pension_app, pension_platform;
--> statement-breakpoint
-- The second step of a sign-in comes before any session: pension_auth, which reads users, finds
-- the factors and may change only what using one changes (the time step spent, a recovery code
-- spent, a passkey's counter and last use). It can add, remove or rewrite no factor.
GRANT SELECT ON user_totp_secrets, user_recovery_codes, user_passkeys TO pension_auth;
--> statement-breakpoint
GRANT UPDATE (last_used_step) ON user_totp_secrets TO pension_auth;
--> statement-breakpoint
GRANT UPDATE (used_at) ON user_recovery_codes TO pension_auth;
--> statement-breakpoint
GRANT UPDATE (counter, last_used_at, backed_up) ON user_passkeys TO pension_auth;
--> statement-breakpoint
ALTER TABLE user_totp_secrets ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE user_totp_secrets FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE user_recovery_codes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE user_recovery_codes FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE user_passkeys ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE user_passkeys FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON user_totp_secrets TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON user_totp_secrets TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY authentication_lookup ON user_totp_secrets FOR SELECT TO pension_auth USING (true);
--> statement-breakpoint
CREATE POLICY authentication_use ON user_totp_secrets FOR UPDATE TO pension_auth USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY tenant_isolation ON user_recovery_codes TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON user_recovery_codes TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY authentication_lookup ON user_recovery_codes FOR SELECT TO pension_auth USING (true);
--> statement-breakpoint
CREATE POLICY authentication_use ON user_recovery_codes FOR UPDATE TO pension_auth USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY tenant_isolation ON user_passkeys TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON user_passkeys TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY authentication_lookup ON user_passkeys FOR SELECT TO pension_auth USING (true);
--> statement-breakpoint
CREATE POLICY authentication_use ON user_passkeys FOR UPDATE TO pension_auth USING (true) WITH CHECK (true);
