-- The login the service's connection pool uses (issue 13 defect 8; decisions.md, "Runtime
-- database login"). It owns nothing and, being NOINHERIT, holds none of the restricted roles'
-- privileges until a transaction switches to one of them, so RESET ROLE inside a tenant
-- transaction lands on a role that can read no table. Only the migrator logs in as the owner.
-- Roles are cluster-wide, so creation tolerates a role made by another database on the server.
-- No password here: the operator sets one (ALTER ROLE pension_runtime PASSWORD …) where the
-- server asks for it, and gives it to the service as DATABASE_RUNTIME_PASSWORD.
DO $$
BEGIN
  CREATE ROLE pension_runtime LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
GRANT pension_app, pension_platform, pension_auth, pension_mailer TO pension_runtime;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO pension_runtime', current_database());
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pension_runtime;
--> statement-breakpoint
-- Every authenticated request calls these on the pool without a transaction (0007); they run
-- as pension_auth, which reads users and nothing else.
GRANT EXECUTE ON FUNCTION auth_user_by_id(text), auth_user_by_email(text) TO pension_runtime;
--> statement-breakpoint
-- Readiness compares the applied migrations with the build's; the list of
-- migration hashes is the only table the login reads as itself.
GRANT SELECT ON schema_migrations TO pension_runtime;
