-- The mail worker delivers the outbox of every tenant and may touch nothing else.
DO $$
BEGIN
  CREATE ROLE pension_mailer NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pension_mailer TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pension_mailer;
--> statement-breakpoint
-- A reset token is found by its hash before the tenant is known, as a user is at sign-in.
GRANT SELECT ON password_reset_tokens TO pension_auth;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON password_reset_tokens TO pension_app, pension_platform;
--> statement-breakpoint
ALTER TABLE password_reset_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE password_reset_tokens FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON password_reset_tokens TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON password_reset_tokens TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY authentication_lookup ON password_reset_tokens FOR SELECT TO pension_auth USING (true);
--> statement-breakpoint
-- Services only add messages; reading and settling them is the worker's.
GRANT INSERT ON email_outbox TO pension_app, pension_platform;
--> statement-breakpoint
GRANT SELECT, UPDATE ON email_outbox TO pension_mailer;
--> statement-breakpoint
ALTER TABLE email_outbox ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE email_outbox FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON email_outbox TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON email_outbox TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY delivery ON email_outbox TO pension_mailer USING (true) WITH CHECK (true);
