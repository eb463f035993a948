-- Hand-written SQL (drizzle-kit generate --custom): re-apply as it stands if this file is ever
-- regenerated. Issue 18 (docs/decisions.md, "Request path (issue 18)"): the session check every
-- authenticated request makes (decisions.md §2: active, same password time and session epoch,
-- same role, firm and employer as the token says) rides in the request's own transaction, in
-- the same batch as the role and tenant settings and the first statement, instead of a read of
-- its own before it. This function is that check. It refuses by raising, with a SQLSTATE of our
-- own, so a refused session aborts the batch it travels in: no statement after it runs, and a
-- transaction it opened can only roll back. Like auth_user_by_id it runs as pension_auth, which
-- can read users and nothing else, and answers nothing about the row but yes or no.
CREATE FUNCTION app_session_check(
  p_user_id text,
  p_session_epoch integer,
  p_password_changed_at bigint,
  p_role text,
  p_broker_id text,
  p_employer_id text,
  p_accept_development_accounts boolean
) RETURNS boolean
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  PERFORM 1 FROM users u
    WHERE u.id = p_user_id
      AND u.status = 'active'
      AND u.password_hash IS NOT NULL
      AND u.session_epoch = p_session_epoch
      AND floor(extract(epoch FROM u.password_changed_at) * 1000)::bigint = p_password_changed_at
      AND u.role = p_role
      AND u.broker_id IS NOT DISTINCT FROM p_broker_id
      AND u.employer_id IS NOT DISTINCT FROM p_employer_id
      AND (p_accept_development_accounts OR NOT u.is_development_account);
  IF NOT FOUND THEN
    RAISE EXCEPTION 'session ended' USING ERRCODE = 'PA401';
  END IF;
  RETURN true;
END $$;
--> statement-breakpoint
ALTER FUNCTION app_session_check(text, integer, bigint, text, text, text, boolean) OWNER TO pension_auth;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_session_check(text, integer, bigint, text, text, text, boolean) FROM PUBLIC;
--> statement-breakpoint
-- Called by the pool's login before the transaction switches to a restricted role (the function
-- sits in the FROM clause of the statement that switches), and by whoever runs the migrations
-- (on PGlite the one login).
GRANT EXECUTE ON FUNCTION app_session_check(text, integer, bigint, text, text, text, boolean) TO pension_runtime;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT EXECUTE ON FUNCTION app_session_check(text, integer, bigint, text, text, text, boolean) TO %I', current_user);
END $$;
