import { createId } from '@paralleldrive/cuid2';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { erasureScopeOf, retentionOf } from '../../../contracts/retention-rules.js';
import { brokers } from '../../platform/db/schema.js';
import { withPlatformReadOnly, withTenantRole } from '../../platform/db/with-actor.js';
import { dailyInIreland, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';
import type { ErasureEntry } from '../../platform/ops/erasure-ledger.js';
import { SYSTEM_ACTOR } from '../auth/index.js';
import {
  erasureById,
  erasureIdsOfTenant,
  leaversOfTenant,
  restrictionInForce,
  retentionFactsOf,
} from './erasure.data.js';
import { applyErasure, type ErasureServiceDeps } from './erasure.service.js';

export interface ErasureRun {
  /** Members whose every benefit may have been paid, looked at. */
  considered: number;
  /** Whole records erased because the schedule keeps none of them any longer. */
  erased: number;
  /** Due, but left alone while their data is restricted (GDPR Art. 18). */
  restricted: number;
  /** Ledger entries the database lacked, applied again. */
  reapplied: number;
}

const tenantsOf = (database: ErasureServiceDeps['database']) =>
  withPlatformReadOnly(database, (tx) =>
    tx.select({ id: brokers.id }).from(brokers).orderBy(brokers.id),
  );

/**
 * Applies again every ledger entry the database lacks (docs/decisions/0149-retention-and-erasure.md):
 * after a restore of a backup taken before the erasure, and for an erasure whose entry was
 * appended but whose transaction did not commit. Each in its own transaction in its tenant, as the
 * service itself; an entry the database holds is skipped, so a second run does nothing. Run by
 * `restore`, by every start-up before the port opens, and by the daily job.
 */
export async function reapplyErasureLedger(
  deps: Pick<ErasureServiceDeps, 'database' | 'audit' | 'now' | 'storage' | 'ledger'>,
): Promise<{ entries: number; reapplied: number }> {
  const entries = await deps.ledger.entries();
  if (entries.length === 0) return { entries: 0, reapplied: 0 };
  const tenants = new Set((await tenantsOf(deps.database)).map((tenant) => tenant.id));
  const byTenant = new Map<string, ErasureEntry[]>();
  for (const entry of entries) {
    // A firm the restored database does not have has no rows to erase.
    if (!tenants.has(entry.brokerId)) continue;
    byTenant.set(entry.brokerId, [...(byTenant.get(entry.brokerId) ?? []), entry]);
  }
  let reapplied = 0;
  for (const [tenantId, ofTenant] of byTenant) {
    // One read a firm for what it already holds: a start-up reads the whole ledger.
    const held = new Set(
      await withTenantRole(deps.database, tenantId, (tx) => erasureIdsOfTenant(tx)),
    );
    for (const entry of ofTenant.filter((each) => !held.has(each.id))) {
      const applied = await withTenantRole(deps.database, tenantId, async (tx) => {
        if (await erasureById(tx, entry.id)) return false;
        await applyErasure(tx, deps, SYSTEM_ACTOR, entry, deps.now(), { reapplied: true });
        return true;
      });
      if (applied) reapplied += 1;
    }
  }
  return { entries: entries.length, reapplied };
}

/**
 * The retention job's work: every member whose every benefit was paid, and whose record the
 * schedule keeps no longer, erased whole, once, as the service itself (trigger
 * `retention_ended`); a restricted member is left alone until the restriction is lifted. Contact
 * details alone are erased only when the member asks. Ledger entries the database lacks are
 * applied first.
 */
export async function eraseWhatRetentionReleased(deps: ErasureServiceDeps): Promise<ErasureRun> {
  const { reapplied } = await reapplyErasureLedger(deps);
  const run: ErasureRun = { considered: 0, erased: 0, restricted: 0, reapplied };
  const today = todayInIreland(deps.now());
  for (const tenant of await tenantsOf(deps.database)) {
    const leavers = await withTenantRole(deps.database, tenant.id, (tx) => leaversOfTenant(tx));
    for (const leaver of leavers) {
      run.considered += 1;
      const outcome = await withTenantRole(deps.database, tenant.id, async (tx) => {
        const facts = await retentionFactsOf(tx, leaver.id);
        // Erased meanwhile by another run or a request.
        if (!facts) return 'kept' as const;
        if (erasureScopeOf(retentionOf(facts, today)) !== 'member') return 'kept' as const;
        if (await restrictionInForce(tx, leaver.id)) return 'restricted' as const;
        const at = deps.now();
        await applyErasure(
          tx,
          deps,
          SYSTEM_ACTOR,
          {
            v: 1,
            id: createId(),
            brokerId: tenant.id,
            memberId: leaver.id,
            scope: 'member',
            trigger: 'retention_ended',
            requestId: null,
            erasedAt: at.toISOString(),
          },
          at,
          { reapplied: false },
        );
        return 'erased' as const;
      });
      if (outcome === 'erased') run.erased += 1;
      if (outcome === 'restricted') run.restricted += 1;
    }
  }
  return run;
}

/**
 * The retention job as the scheduler calls it (POST /api/cron/erasure), daily at 03:00 Irish
 * time, when little else runs.
 */
export function erasureJob(deps: ErasureServiceDeps): ScheduledJob {
  return {
    name: 'erasure',
    cadence: dailyInIreland({ hour: 3, minute: 0 }),
    maxRuntimeMinutes: 30,
    async run() {
      const { considered, erased, restricted, reapplied } = await eraseWhatRetentionReleased(deps);
      return { considered, erased, restricted, reapplied };
    },
  };
}
