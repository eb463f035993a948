ALTER TABLE "users" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Issue 13, defect 4: a session token carries the session_epoch it was issued under and is
-- refused once the row's differs. Raised here, below every writer (API, CLI, an operator's SQL),
-- whenever what a session stands for changes: its password, its status (deactivation and
-- reactivation alike), its role or its place in the tenancy. Sign-out raises it explicitly. It
-- never goes down, so no update can bring back tokens that were ended.
CREATE FUNCTION users_end_sessions_on_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW.password_hash IS DISTINCT FROM OLD.password_hash
    OR NEW.password_changed_at IS DISTINCT FROM OLD.password_changed_at
    OR NEW.status IS DISTINCT FROM OLD.status
    OR NEW.role IS DISTINCT FROM OLD.role
    OR NEW.broker_id IS DISTINCT FROM OLD.broker_id
    OR NEW.employer_id IS DISTINCT FROM OLD.employer_id
    OR NEW.member_id IS DISTINCT FROM OLD.member_id THEN
    NEW.session_epoch := greatest(NEW.session_epoch, OLD.session_epoch + 1);
  ELSE
    NEW.session_epoch := greatest(NEW.session_epoch, OLD.session_epoch);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_end_sessions_on_change
  BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION users_end_sessions_on_change();
--> statement-breakpoint
-- Issue 13, defect 7: the holder of an address that a BrokerAdmin of another firm tried to give
-- an account is told by e-mail (account_offered); the BrokerAdmin's answer does not change.
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created','account_offered'));
