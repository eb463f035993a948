import { and, eq, lt, sql } from 'drizzle-orm';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { type Database, rowsOf } from '../../platform/db/database.js';
import { brokers, imports, payrollUploads } from '../../platform/db/schema.js';
import {
  type Transaction,
  withPlatformReadOnly,
  withPlatformRole,
  withTenantRole,
} from '../../platform/db/with-actor.js';
import { UPLOAD_BODY_DEADLINE_MS } from '../../platform/http/body-deadline.js';
import { everyMinute, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';
import { SYSTEM_ACTOR } from '../auth/index.js';
import { PAYROLL_LOCK_NAMESPACE, payrollUploadAuditState } from '../auto-enrolment/index.js';
import { IMPORT_LOCK_NAMESPACE, importAuditState } from './imports.service.js';

/**
 * How long a running import may go without progress before it is taken for abandoned. While the
 * file arrives, its row's `updatedAt` moves at least every 5,000 rows; the server's request
 * timeout (`requestTimeout` in app.ts, UPLOAD_BODY_DEADLINE_MS: 10 minutes from the request's
 * start) ends any upload still arriving after that, and the idle `connectionTimeout` (60 s) ends
 * one that stalls sooner. Twice the deadline leaves a margin for a clock that differs between
 * instances and for the short step from the file's end to phase 2, which the lock check covers.
 */
export const ABANDONED_AFTER_MS = 2 * UPLOAD_BODY_DEADLINE_MS;
/** Imports (and payroll uploads of one tenant) settled per run; the next run takes the rest. */
const SWEEP_BATCH = 100;

type Settling = 'settled' | 'locked' | 'moved on';

/** Whether this transaction took a phase-2 advisory lock, held until it ends; false when held. */
async function lockTaken(tx: Transaction, namespace: number, key: string): Promise<boolean> {
  const [lock] = rowsOf<{ taken: boolean }>(
    await tx.execute(
      sql`select pg_try_advisory_xact_lock(${namespace}, hashtext(${key})) as taken`,
    ),
  );
  return lock?.taken === true;
}

/**
 * `import-sweep` (docs/decisions/0058-abandoned-imports-swept.md): an import or payroll upload whose
 * instance stopped while its file was still arriving (docs/faults.md) keeps `status = 'running'`
 * for ever, because the row is committed before the file arrives. This job settles it `failed`,
 * as its service settles one that breaks off (nothing written, audit action `import.failed` or
 * `payroll_upload.failed`, in the transaction that changes its status), once it is provably
 * abandoned: no progress for longer than an upload can last, and the advisory lock its phase 2
 * takes (the scheme's, the employer's) free, so no instance is writing there. Nothing of an
 * upload is written outside that locked transaction, so an abandoned one wrote nothing.
 *
 * The records are the service's own (the `system` actor, as at start-up), each in the upload's
 * tenant's chain. Imports are reached as pension_platform, which reads and updates every
 * tenant's imports and appends to every chain already; pension_scheduler, which the other sweep
 * uses, reaches neither table. Payroll uploads are granted to the tenant role alone (migration
 * 0021), so they are swept tenant by tenant as pension_app with that tenant set.
 */
export function importSweepJob({
  database,
  audit,
  now,
}: {
  database: Database;
  audit: AuditService;
  now: () => Date;
}): ScheduledJob {
  /** Settles one import if it is still abandoned, re-read under a row lock. */
  const settleImport = (cutoff: Date, brokerId: string, id: string) =>
    withPlatformRole(database, async (tx): Promise<Settling> => {
      // Read again under a row lock: another run, or the import itself, may have moved it.
      const [row] = await tx
        .select()
        .from(imports)
        .where(
          and(eq(imports.brokerId, brokerId), eq(imports.id, id), eq(imports.status, 'running')),
        )
        .for('update');
      if (!row || row.updatedAt >= cutoff) return 'moved on';
      // Held: an instance is in phase 2 of an import into this scheme right now (perhaps this
      // very import, its file read long ago and waiting its turn): left for a later run.
      if (!(await lockTaken(tx, IMPORT_LOCK_NAMESPACE, row.schemeId))) return 'locked';
      const at = now();
      const [settled] = await tx
        .update(imports)
        .set({
          status: 'failed',
          rowsWritten: 0,
          issues: null,
          issueCount: 0,
          finishedAt: at,
          updatedAt: at,
        })
        .where(and(eq(imports.brokerId, row.brokerId), eq(imports.id, row.id)))
        .returning();
      if (!settled) throw new Error('the import row is missing');
      await audit.record(tx, SYSTEM_ACTOR, {
        action: 'import.failed',
        entityType: 'import',
        entityId: settled.id,
        tenantId: settled.brokerId,
        previousState: null,
        newState: importAuditState(settled),
      });
      return 'settled';
    });

  /** Settles one payroll upload if it is still abandoned, in its tenant, under a row lock. */
  const settlePayrollUpload = (cutoff: Date, brokerId: string, id: string) =>
    withTenantRole(database, brokerId, async (tx): Promise<Settling> => {
      const [row] = await tx
        .select()
        .from(payrollUploads)
        .where(
          and(
            eq(payrollUploads.brokerId, brokerId),
            eq(payrollUploads.id, id),
            eq(payrollUploads.status, 'running'),
          ),
        )
        .for('update');
      if (!row || row.updatedAt >= cutoff) return 'moved on';
      // Held: an instance is writing a payroll upload of this employer right now.
      if (!(await lockTaken(tx, PAYROLL_LOCK_NAMESPACE, row.employerId))) return 'locked';
      const at = now();
      const [settled] = await tx
        .update(payrollUploads)
        .set({
          status: 'failed',
          rowsWritten: 0,
          employeesWritten: 0,
          issues: null,
          issueCount: 0,
          finishedAt: at,
          updatedAt: at,
        })
        .where(and(eq(payrollUploads.brokerId, row.brokerId), eq(payrollUploads.id, row.id)))
        .returning();
      if (!settled) throw new Error('the payroll upload row is missing');
      await audit.record(tx, SYSTEM_ACTOR, {
        action: 'payroll_upload.failed',
        entityType: 'payroll_upload',
        entityId: settled.id,
        tenantId: settled.brokerId,
        previousState: null,
        newState: payrollUploadAuditState(settled),
      });
      return 'settled';
    });

  return {
    name: 'import-sweep',
    cadence: everyMinute(),
    maxRuntimeMinutes: 30,
    async run() {
      const counts = { settled: 0, imports: 0, payrollUploads: 0, locked: 0 };
      const tally = (outcome: Settling, kind: 'imports' | 'payrollUploads') => {
        if (outcome === 'settled') {
          counts.settled += 1;
          counts[kind] += 1;
        } else if (outcome === 'locked') {
          counts.locked += 1;
        }
      };
      const cutoff = new Date(now().getTime() - ABANDONED_AFTER_MS);
      const stale = await withPlatformReadOnly(database, (tx) =>
        tx
          .select({ brokerId: imports.brokerId, id: imports.id })
          .from(imports)
          .where(and(eq(imports.status, 'running'), lt(imports.updatedAt, cutoff)))
          .orderBy(imports.updatedAt)
          .limit(SWEEP_BATCH),
      );
      for (const found of stale) {
        tally(await settleImport(cutoff, found.brokerId, found.id), 'imports');
      }
      const tenants = await withPlatformReadOnly(database, (tx) =>
        tx.select({ id: brokers.id }).from(brokers),
      );
      for (const tenant of tenants) {
        const staleUploads = await withTenantRole(database, tenant.id, (tx) =>
          tx
            .select({ id: payrollUploads.id })
            .from(payrollUploads)
            .where(
              and(
                eq(payrollUploads.brokerId, tenant.id),
                eq(payrollUploads.status, 'running'),
                lt(payrollUploads.updatedAt, cutoff),
              ),
            )
            .orderBy(payrollUploads.updatedAt)
            .limit(SWEEP_BATCH),
        );
        for (const found of staleUploads) {
          tally(await settlePayrollUpload(cutoff, tenant.id, found.id), 'payrollUploads');
        }
      }
      return counts;
    },
  };
}
