-- Runtime roles. Roles are cluster-wide, so creation tolerates a role made by another database
-- (or a concurrent migration) on the same server.
DO $$
BEGIN
  CREATE ROLE pension_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  CREATE ROLE pension_platform NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
-- The connecting (migrating) user switches to these roles per transaction with SET LOCAL ROLE.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pension_app, pension_platform TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pension_app, pension_platform;
--> statement-breakpoint
-- The tenant of the current transaction; NULL when unset, so every policy fails closed.
CREATE FUNCTION app_current_tenant() RETURNS text
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.tenant_id', true), '') $$;
--> statement-breakpoint
GRANT SELECT ON brokers TO pension_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON brokers TO pension_platform;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON employers TO pension_app, pension_platform;
--> statement-breakpoint
-- Append-only (service-spec §2.8): the runtime roles may only add and read records.
GRANT SELECT, INSERT ON audit_log TO pension_app, pension_platform;
--> statement-breakpoint
ALTER TABLE brokers ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE brokers FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON brokers TO pension_app
  USING (id = app_current_tenant()) WITH CHECK (id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON brokers TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE employers ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE employers FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON employers TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON employers TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_log TO pension_app
  USING (tenant_id = app_current_tenant()) WITH CHECK (tenant_id = app_current_tenant());
--> statement-breakpoint
CREATE POLICY platform_access ON audit_log TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
-- No one, not even the owner, edits or removes audit records.
CREATE FUNCTION audit_log_reject_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_reject_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_reject_change();
