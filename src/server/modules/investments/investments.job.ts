import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { brokers } from '../../platform/db/schema.js';
import { withPlatformReadOnly, withTenantRole } from '../../platform/db/with-actor.js';
import { dailyInIreland, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';
import { SYSTEM_ACTOR } from '../auth/index.js';
import { investedSchemes } from './ledger.data.js';
import { settle } from './ledger.service.js';

export interface InvestmentsRun {
  schemes: number;
  invested: number;
  switched: number;
  charged: number;
  waiting: number;
  /** Schemes another transaction was settling or repricing: that one does what is due. */
  busy: number;
}

export interface InvestmentsJobDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * One settlement of every scheme of every tenant whose members hold units, as of the day in
 * Ireland (docs/decisions/0127-dc-money.md): money invested where its prices are in, switches
 * carried out, the charges of every month that has ended taken. Each scheme settles in its own
 * transaction, in its tenant as the tenants' role with row-level security on, as the service
 * itself (the `system` actor, as the import sweep); the tenants are listed read-only as the
 * platform. Each movement is written once by its source, so a second run, one on another instance
 * at the same time, or one after an outage does only what is still due.
 */
export async function settleEveryScheme({
  database,
  audit,
  now,
}: InvestmentsJobDeps): Promise<InvestmentsRun> {
  const today = todayInIreland(now());
  const run: InvestmentsRun = {
    schemes: 0,
    invested: 0,
    switched: 0,
    charged: 0,
    waiting: 0,
    busy: 0,
  };
  const tenants = await withPlatformReadOnly(database, (tx) =>
    tx.select({ id: brokers.id }).from(brokers).orderBy(brokers.id),
  );
  for (const tenant of tenants) {
    const schemeIds = await withTenantRole(database, tenant.id, (tx) =>
      investedSchemes(tx, tenant.id),
    );
    for (const schemeId of schemeIds) {
      const settled = await withTenantRole(database, tenant.id, (tx) =>
        settle(tx, audit, { brokerId: tenant.id, schemeId }, today, {
          actor: SYSTEM_ACTOR,
          at: now(),
          lock: 'try',
        }),
      );
      run.schemes += 1;
      run.invested += settled.invested;
      run.switched += settled.switched;
      run.charged += settled.charged;
      run.waiting += settled.waiting;
      if (settled.busy) run.busy += 1;
    }
  }
  return run;
}

/**
 * The investments job as the scheduler calls it (POST /api/cron/investments), daily at 22:00
 * Irish time: the day's prices, recorded during it, are in by then. A run settles as of the day it
 * runs, not the slot it was scheduled for: a run that catches up after an outage takes every
 * charge and movement still due.
 */
export function investmentsJob(deps: InvestmentsJobDeps): ScheduledJob {
  return {
    name: 'investments',
    cadence: dailyInIreland({ hour: 22, minute: 0 }),
    maxRuntimeMinutes: 30,
    async run() {
      const { schemes, invested, switched, charged, waiting, busy } = await settleEveryScheme(deps);
      return { schemes, invested, switched, charged, waiting, busy };
    },
  };
}
