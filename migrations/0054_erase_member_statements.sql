-- hand-written (docs/decisions/0149-retention-and-erasure.md): a member's Pension Benefit
-- Statements (docs/decisions/0141-pension-benefit-statements.md) and the record of each reveal of
-- their PPS number (docs/decisions/0145-a-reason-for-a-pps-reveal.md) go with the rest of their record.
-- A run keeps its counts and, of its issues, the ids only. The function is otherwise as migration
-- 0048 left it, and keeps its grants.
CREATE OR REPLACE FUNCTION erase_member(p_member_id text) RETURNS SETOF text
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
  DELETE FROM statements WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM pps_reveals WHERE broker_id = v_tenant AND member_id = p_member_id;
  DELETE FROM data_request_recipients r USING data_requests d
   WHERE d.broker_id = v_tenant AND d.member_id = p_member_id
     AND r.broker_id = v_tenant AND r.data_request_id = d.id;
  DELETE FROM data_protection_reminders r USING data_requests d
   WHERE d.broker_id = v_tenant AND d.member_id = p_member_id
     AND r.broker_id = v_tenant AND r.data_request_id = d.id;
  DELETE FROM data_requests WHERE broker_id = v_tenant AND member_id = p_member_id;
  RETURN QUERY
    DELETE FROM documents WHERE broker_id = v_tenant AND member_id = p_member_id
    RETURNING documents.storage_key;
  DELETE FROM members WHERE broker_id = v_tenant AND id = p_member_id;
END $$;
