-- Every authenticated request re-reads its user (decisions.md §2). As one statement calling a
-- function that runs as pension_auth, that read is a single round trip instead of a transaction
-- of four, and still cannot see anything but users.
CREATE FUNCTION auth_user_by_id(p_id text) RETURNS SETOF users
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT * FROM users WHERE id = p_id $$;
--> statement-breakpoint
CREATE FUNCTION auth_user_by_email(p_email text) RETURNS SETOF users
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT * FROM users WHERE lower(email) = lower(p_email) $$;
--> statement-breakpoint
ALTER FUNCTION auth_user_by_id(text) OWNER TO pension_auth;
--> statement-breakpoint
ALTER FUNCTION auth_user_by_email(text) OWNER TO pension_auth;
--> statement-breakpoint
REVOKE ALL ON FUNCTION auth_user_by_id(text), auth_user_by_email(text) FROM PUBLIC;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT EXECUTE ON FUNCTION auth_user_by_id(text), auth_user_by_email(text) TO %I', current_user);
END $$;
