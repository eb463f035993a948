-- Pre-authentication work (sign-in, session checks) must find a user before any tenant is
-- known. It runs as this role, which can read users and nothing else.
DO $$
BEGIN
  CREATE ROLE pension_auth NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pension_auth TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pension_auth;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON users TO pension_app, pension_platform;
--> statement-breakpoint
GRANT SELECT ON users TO pension_auth;
--> statement-breakpoint
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON users TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON users TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY authentication_lookup ON users FOR SELECT TO pension_auth USING (true);
