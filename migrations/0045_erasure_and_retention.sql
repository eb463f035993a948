CREATE TABLE "erasures" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"member_id" text NOT NULL,
	"scope" text NOT NULL,
	"trigger" text NOT NULL,
	"request_id" text,
	"document_count" integer NOT NULL,
	"erased_at" timestamp (3) with time zone NOT NULL,
	"reapplied_at" timestamp (3) with time zone,
	CONSTRAINT "erasures_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "erasures_scope_known" CHECK ("erasures"."scope" in ('member', 'contact_details')),
	CONSTRAINT "erasures_trigger_known" CHECK ("erasures"."trigger" in ('request', 'retention_ended')),
	CONSTRAINT "erasures_request_for_requests" CHECK (("erasures"."trigger" = 'request') = ("erasures"."request_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "member_restrictions" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"member_id" text NOT NULL,
	"reason" text NOT NULL,
	"restricted_on" date NOT NULL,
	"lifted_on" date,
	"created_by" text NOT NULL,
	"lifted_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_restrictions_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "member_restrictions_reason_length" CHECK (char_length("member_restrictions"."reason") between 1 and 1000),
	CONSTRAINT "member_restrictions_lifted_whole" CHECK (("member_restrictions"."lifted_on" is null) = ("member_restrictions"."lifted_by" is null))
);
--> statement-breakpoint
ALTER TABLE "erasures" ADD CONSTRAINT "erasures_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_restrictions" ADD CONSTRAINT "member_restrictions_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_restrictions" ADD CONSTRAINT "member_restrictions_member_fk" FOREIGN KEY ("member_id","broker_id") REFERENCES "public"."members"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "erasures_member_idx" ON "erasures" USING btree ("broker_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_restrictions_in_force_key" ON "member_restrictions" USING btree ("broker_id","member_id") WHERE "member_restrictions"."lifted_on" is null;--> statement-breakpoint
-- hand-written: grants, row-level security and the erasure functions (re-append after
-- regenerating; docs/decisions/0149-retention-and-erasure.md). The ledger and the restrictions are
-- tenant tables as every other; an entry is written once and only the re-application's day is
-- ever updated, a restriction only lifted.
GRANT SELECT, INSERT ON erasures TO pension_app;--> statement-breakpoint
GRANT UPDATE (reapplied_at) ON erasures TO pension_app;--> statement-breakpoint
GRANT SELECT ON erasures TO pension_platform;--> statement-breakpoint
GRANT SELECT, INSERT ON member_restrictions TO pension_app;--> statement-breakpoint
GRANT UPDATE (lifted_on, lifted_by, updated_at) ON member_restrictions TO pension_app;--> statement-breakpoint
GRANT SELECT ON member_restrictions TO pension_platform;--> statement-breakpoint
ALTER TABLE erasures ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE erasures FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON erasures TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON erasures TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE member_restrictions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE member_restrictions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON member_restrictions TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON member_restrictions TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
-- The member's sign-in accounts go with their contact details: the credentials and e-mails that
-- belong to the account first. Only for the erasure functions below; nobody else may call it.
CREATE FUNCTION erase_member_accounts(p_tenant text, p_member_id text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  v_user text;
BEGIN
  FOR v_user IN SELECT id FROM users WHERE broker_id = p_tenant AND member_id = p_member_id LOOP
    DELETE FROM user_totp_secrets WHERE broker_id = p_tenant AND user_id = v_user;
    DELETE FROM user_recovery_codes WHERE broker_id = p_tenant AND user_id = v_user;
    DELETE FROM user_passkeys WHERE broker_id = p_tenant AND user_id = v_user;
    DELETE FROM password_reset_tokens WHERE broker_id = p_tenant AND user_id = v_user;
    DELETE FROM email_outbox WHERE broker_id = p_tenant AND user_id = v_user;
    DELETE FROM compliance_reminders WHERE broker_id = p_tenant AND user_id = v_user;
    DELETE FROM users WHERE broker_id = p_tenant AND id = v_user;
  END LOOP;
END $$;--> statement-breakpoint
REVOKE ALL ON FUNCTION erase_member_accounts(text, text) FROM PUBLIC;--> statement-breakpoint
-- A paid-out member's contact details: their e-mail and postal address, their dependants' contact
-- details and their sign-in account. In the caller's tenant only (app.tenant_id), whoever owns
-- the function: every statement names the tenant, so an owner that row-level security would not
-- hold still erases nothing of another firm.
CREATE FUNCTION erase_member_contacts(p_member_id text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  v_tenant text := app_current_tenant();
BEGIN
  IF v_tenant IS NULL THEN
    RAISE EXCEPTION 'erase_member_contacts runs in a tenant';
  END IF;
  PERFORM erase_member_accounts(v_tenant, p_member_id);
  UPDATE member_dependants SET phone = NULL, email = NULL, address = NULL
   WHERE broker_id = v_tenant AND member_id = p_member_id;
  UPDATE members SET email = NULL, address = NULL, updated_at = now()
   WHERE broker_id = v_tenant AND id = p_member_id;
END $$;--> statement-breakpoint
REVOKE ALL ON FUNCTION erase_member_contacts(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION erase_member_contacts(text) TO pension_app;--> statement-breakpoint
-- A member's whole record, once the retention schedule no longer requires any of it: every row
-- about them, the member's row last. The tables are append-only to the service's role; this one
-- function is the way rows leave them. Answers the storage keys of the documents it removed, for
-- the caller to remove their files. A table added later with a member's rows must be added here:
-- test/gdpr/erasure.test.ts finds every column named member_id in the catalogue and fails on one
-- this leaves rows in.
CREATE FUNCTION erase_member(p_member_id text) RETURNS SETOF text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  v_tenant text := app_current_tenant();
BEGIN
  IF v_tenant IS NULL THEN
    RAISE EXCEPTION 'erase_member runs in a tenant';
  END IF;
  PERFORM erase_member_accounts(v_tenant, p_member_id);
  DELETE FROM contribution_adjustments a USING contributions c
   WHERE c.broker_id = v_tenant AND c.member_id = p_member_id
     AND a.broker_id = v_tenant AND a.contribution_id = c.id;
  DELETE FROM contributions WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM fund_allocation_lines l USING fund_allocations f
   WHERE f.broker_id = v_tenant AND f.member_id = p_member_id
     AND l.broker_id = v_tenant AND l.allocation_id = f.id;
  DELETE FROM fund_allocations WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM fund_switches WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM member_transactions WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM member_payouts WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM member_status_changes WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM member_dependants WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM member_restrictions WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM data_requests WHERE broker_id = v_tenant AND member_id = p_member_id;
  RETURN QUERY
    DELETE FROM documents WHERE broker_id = v_tenant AND member_id = p_member_id
    RETURNING documents.storage_key;
  DELETE FROM members WHERE broker_id = v_tenant AND id = p_member_id;
END $$;--> statement-breakpoint
REVOKE ALL ON FUNCTION erase_member(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION erase_member(text) TO pension_app;
