import { createId } from '@paralleldrive/cuid2';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYROLL_LOCK_NAMESPACE } from '../../src/server/modules/auto-enrolment/payroll-upload.service.js';
import { ABANDONED_AFTER_MS } from '../../src/server/modules/imports/import-sweep.job.js';
import { IMPORT_LOCK_NAMESPACE } from '../../src/server/modules/imports/imports.service.js';
import { chainsAreSound } from '../../src/server/platform/audit/audit-log.js';
import { auditLog, imports, payrollUploads } from '../../src/server/platform/db/schema.js';
import type { JobCounts } from '../../src/server/platform/jobs/scheduled-jobs.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { verifyTestChains } from '../helpers/audit.js';
import { onPostgres, ownerOf } from '../helpers/database.js';
import { schemeFixture } from '../helpers/fixtures.js';

let t: TestApp;
let clock = new Date('2026-03-02T09:00:00.000Z');
beforeAll(async () => {
  t = await buildTestApp({ now: () => clock });
});
afterAll(async () => {
  await t.close();
});

/** A scheme of a new tenant, with the user who started its imports. */
async function scheme() {
  const { brokerId, employerId, schemeId, user } = await schemeFixture(t.database, {
    users: { user: 'BrokerUser' },
  });
  return { brokerId, employerId, schemeId, userId: user.id };
}

/** An import row as the service commits it when the upload starts, last moved at `updatedAt`. */
async function runningImport(
  place: Awaited<ReturnType<typeof scheme>>,
  updatedAt: Date,
): Promise<string> {
  const id = createId();
  await ownerOf(t.database)
    .insert(imports)
    .values({
      id,
      brokerId: place.brokerId,
      employerId: place.employerId,
      schemeId: place.schemeId,
      kind: 'members',
      status: 'running',
      rowsRead: 5_000,
      fileBytes: 400_000,
      createdBy: place.userId,
      createdAt: new Date(updatedAt.getTime() - 60_000),
      updatedAt,
    });
  return id;
}

const importRow = async (id: string) =>
  (await ownerOf(t.database).select().from(imports).where(eq(imports.id, id)))[0];

const failedRecords = (id: string, action = 'import.failed') =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, action)));

/** A payroll upload row as the payroll service commits it when the upload starts. */
async function runningPayrollUpload(
  place: Awaited<ReturnType<typeof scheme>>,
  updatedAt: Date,
): Promise<string> {
  const id = createId();
  await ownerOf(t.database)
    .insert(payrollUploads)
    .values({
      id,
      brokerId: place.brokerId,
      employerId: place.employerId,
      status: 'running',
      rowsRead: 5_000,
      fileBytes: 300_000,
      createdBy: place.userId,
      createdAt: new Date(updatedAt.getTime() - 60_000),
      updatedAt,
    });
  return id;
}

const payrollRow = async (id: string) =>
  (await ownerOf(t.database).select().from(payrollUploads).where(eq(payrollUploads.id, id)))[0];

function sweep(): Promise<JobCounts> {
  const job = t.app.scheduledJobs.get('import-sweep');
  if (!job) throw new Error('import-sweep is not registered');
  return job.run({ scheduledFor: clock, runId: createId() });
}

const longAgo = () => new Date(clock.getTime() - ABANDONED_AFTER_MS - 60_000);

describe('import-sweep', () => {
  it('settles an import running without progress past the limit as failed, with its audit record in a sound chain', async () => {
    clock = new Date(clock.getTime() + 3_600_000);
    const place = await scheme();
    const id = await runningImport(place, longAgo());

    expect(await sweep()).toMatchObject({ settled: 1 });

    const row = await importRow(id);
    expect(row).toMatchObject({
      status: 'failed',
      rowsWritten: 0,
      rowsRead: 5_000,
      issueCount: 0,
      issues: null,
    });
    expect(row?.finishedAt?.toISOString()).toBe(clock.toISOString());
    const records = await failedRecords(id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tenantId: place.brokerId,
      actorId: 'system',
      entityType: 'import',
      newState: expect.objectContaining({ status: 'failed', rowsWritten: 0, rowsRead: 5_000 }),
    });
    const chains = await verifyTestChains(t.database, { tenantId: place.brokerId });
    expect(chainsAreSound(chains)).toBe(true);
    expect(chains.records).toBeGreaterThan(0);
  });

  it('leaves alone a running import whose last progress is within the limit, and settles it once past it', async () => {
    clock = new Date(clock.getTime() + 3_600_000);
    const place = await scheme();
    const id = await runningImport(place, new Date(clock.getTime() - ABANDONED_AFTER_MS + 60_000));

    expect(await sweep()).toMatchObject({ settled: 0 });

    expect((await importRow(id))?.status).toBe('running');
    expect(await failedRecords(id)).toEqual([]);

    clock = new Date(clock.getTime() + 120_000);
    expect(await sweep()).toMatchObject({ settled: 1 });
    expect((await importRow(id))?.status).toBe('failed');
  });

  it('settles nothing on a second run', async () => {
    clock = new Date(clock.getTime() + 3_600_000);
    const place = await scheme();
    const id = await runningImport(place, longAgo());
    expect(await sweep()).toMatchObject({ settled: 1 });

    expect(await sweep()).toMatchObject({ settled: 0 });

    expect(await failedRecords(id)).toHaveLength(1);
  });

  it('settles every tenant’s abandoned imports, each audit record in its own tenant’s chain', async () => {
    clock = new Date(clock.getTime() + 3_600_000);
    const first = await scheme();
    const second = await scheme();
    const firstId = await runningImport(first, longAgo());
    const secondId = await runningImport(second, longAgo());

    expect(await sweep()).toMatchObject({ settled: 2 });

    const [firstRecord] = await failedRecords(firstId);
    const [secondRecord] = await failedRecords(secondId);
    expect(firstRecord).toMatchObject({ tenantId: first.brokerId, chainKey: first.brokerId });
    expect(secondRecord).toMatchObject({ tenantId: second.brokerId, chainKey: second.brokerId });
    for (const tenantId of [first.brokerId, second.brokerId]) {
      expect(chainsAreSound(await verifyTestChains(t.database, { tenantId }))).toBe(true);
    }
  });

  // PGlite has one connection: a transaction holding the lock would hold the job's connection too.
  it.skipIf(!onPostgres)(
    'leaves alone an abandoned-looking import while its scheme’s import lock is held (PostgreSQL only: PGlite has a single connection)',
    async () => {
      clock = new Date(clock.getTime() + 3_600_000);
      const place = await scheme();
      const id = await runningImport(place, longAgo());

      const whileLocked = await ownerOf(t.database).transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(${IMPORT_LOCK_NAMESPACE}, hashtext(${place.schemeId}))`,
        );
        return sweep();
      });
      expect(whileLocked).toMatchObject({ settled: 0, locked: 1 });
      expect((await importRow(id))?.status).toBe('running');
      expect(await failedRecords(id)).toEqual([]);

      expect(await sweep()).toMatchObject({ settled: 1 });
      expect((await importRow(id))?.status).toBe('failed');
    },
  );

  it('settles an abandoned payroll upload as failed with its payroll_upload.failed record in its tenant’s sound chain, and a recent one not', async () => {
    clock = new Date(clock.getTime() + 3_600_000);
    const place = await scheme();
    const abandoned = await runningPayrollUpload(place, longAgo());
    const recent = await runningPayrollUpload(
      place,
      new Date(clock.getTime() - ABANDONED_AFTER_MS + 60_000),
    );

    expect(await sweep()).toMatchObject({ settled: 1, payrollUploads: 1, imports: 0 });

    expect(await payrollRow(abandoned)).toMatchObject({
      status: 'failed',
      rowsWritten: 0,
      employeesWritten: 0,
      rowsRead: 5_000,
      issues: null,
    });
    const [record, ...more] = await failedRecords(abandoned, 'payroll_upload.failed');
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      tenantId: place.brokerId,
      chainKey: place.brokerId,
      actorId: 'system',
      entityType: 'payroll_upload',
      newState: expect.objectContaining({ employerId: place.employerId, status: 'failed' }),
    });
    expect((await payrollRow(recent))?.status).toBe('running');
    expect(chainsAreSound(await verifyTestChains(t.database, { tenantId: place.brokerId }))).toBe(
      true,
    );

    expect(await sweep()).toMatchObject({ settled: 0 });
    expect(await failedRecords(abandoned, 'payroll_upload.failed')).toHaveLength(1);
    // Settled too once it has gone without progress past the limit.
    clock = new Date(clock.getTime() + 120_000);
    expect(await sweep()).toMatchObject({ settled: 1, payrollUploads: 1 });
  });

  it.skipIf(!onPostgres)(
    'leaves alone an abandoned-looking payroll upload while its employer’s payroll lock is held (PostgreSQL only: PGlite has a single connection)',
    async () => {
      clock = new Date(clock.getTime() + 3_600_000);
      const place = await scheme();
      const id = await runningPayrollUpload(place, longAgo());

      const whileLocked = await ownerOf(t.database).transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(${PAYROLL_LOCK_NAMESPACE}, hashtext(${place.employerId}))`,
        );
        return sweep();
      });
      expect(whileLocked).toMatchObject({ settled: 0, locked: 1 });
      expect((await payrollRow(id))?.status).toBe('running');

      expect(await sweep()).toMatchObject({ settled: 1, payrollUploads: 1 });
    },
  );
});
