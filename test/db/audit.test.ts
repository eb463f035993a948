import { spawnSync } from 'node:child_process';
import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/server/platform/audit/audit-chain.js';
import {
  type AuditAction,
  AuditActionWithoutWordsError,
  AuditTenantMismatchError,
} from '../../src/server/platform/audit/audit-log.js';
import { openPglite, rowsOf } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrator.js';
import { auditLog, brokers, employers } from '../../src/server/platform/db/schema.js';
import {
  type Transaction,
  TransactionNotFinishableError,
  withActor,
} from '../../src/server/platform/db/with-actor.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import { TEST_CHAIN_KEY, testAuditService, verifyTestChains } from '../helpers/audit.js';
import { TEST_SECRETS, testDataDir } from '../helpers/config.js';
import {
  databaseErrorOf,
  onPostgres,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
} from '../helpers/database.js';

const FIXED_TIME = new Date('2026-03-04T05:06:07.089Z');
const audit = testAuditService(() => FIXED_TIME);

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.dispose());

async function newBroker(): Promise<string> {
  const id = createId();
  await withActor(t.database, platformActor(), async (tx) => {
    await tx.insert(brokers).values({ id, name: `Broker ${id}` });
  });
  return id;
}

async function createEmployerAudited(tenantId: string, action: AuditAction = 'employer.created') {
  const actor = tenantActor(tenantId);
  const id = createId();
  await withActor(t.database, actor, async (tx) => {
    await tx.insert(employers).values({ id, brokerId: tenantId, name: 'Acme Ltd' });
    await audit.record(tx, actor, {
      action,
      entityType: 'employer',
      entityId: id,
      tenantId,
      previousState: null,
      newState: { id, name: 'Acme Ltd' },
    });
  });
  return id;
}

async function countAsOwner(table: 'employers' | 'audit_log', column: string, value: string) {
  const result = await ownerOf(t.database).execute(
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${value}`,
  );
  return rowsOf<{ n: number }>(result)[0]?.n;
}

describe('the audit log', () => {
  it('records every field of an audit record (docs/api.md), the actor tenant and a server-assigned UTC time', async () => {
    const tenantId = await newBroker();
    const employerId = await createEmployerAudited(tenantId);
    const [record] = await withActor(t.database, platformActor(), (tx) =>
      tx.select().from(auditLog).where(sql`${auditLog.entityId} = ${employerId}`),
    );
    expect(record).toMatchObject({
      tenantId,
      actorTenantId: tenantId,
      actorType: 'BrokerAdmin',
      action: 'employer.created',
      entityType: 'employer',
      entityId: employerId,
      previousState: null,
      newState: { id: employerId, name: 'Acme Ltd' },
      ipAddress: '203.0.113.7',
      userAgent: 'vitest',
      clientAddress: '192.0.2.10',
      chainIndex: 1,
      previousHash: GENESIS_HASH,
      hashVersion: 3,
      keyId: TEST_CHAIN_KEY.id,
    });
    expect(record?.timestamp.toISOString()).toBe(FIXED_TIME.toISOString());
    expect(record?.id).toMatch(/^[a-z0-9]{24,}$/);
  });

  it('chains each tenant separately, every record holding the previous one’s hash', async () => {
    const [a, b] = [await newBroker(), await newBroker()];
    for (const tenant of [a, b, a, a, b]) await createEmployerAudited(tenant);
    const chainA = await withActor(t.database, tenantActor(a), (tx) =>
      tx.select().from(auditLog).orderBy(auditLog.chainIndex),
    );
    expect(chainA.map((record) => record.chainIndex)).toEqual([1, 2, 3]);
    expect(chainA[1]?.previousHash).toBe(chainA[0]?.hash);
    expect(chainA[2]?.previousHash).toBe(chainA[1]?.hash);
    const report = await verifyTestChains(t.database, { tenantId: b });
    expect(report).toMatchObject({ chains: 1, records: 2, broken: [] });
  });

  it('keeps a contiguous chain when one tenant writes many records at once', async () => {
    const tenantId = await newBroker();
    await Promise.all(Array.from({ length: 12 }, () => createEmployerAudited(tenantId)));
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report).toMatchObject({ chains: 1, records: 12, broken: [] });
  });

  it('leaves no trace of a change whose audit write fails', async () => {
    const tenantId = await newBroker();
    await expect(
      createEmployerAudited(tenantId, 'Not A Dotted Action' as AuditAction),
    ).rejects.toThrow();
    expect(await countAsOwner('employers', 'broker_id', tenantId)).toBe(0);
    expect(await countAsOwner('audit_log', 'tenant_id', tenantId)).toBe(0);
  });

  it('refuses an action no manifest gives words, so the log never shows a bare code', async () => {
    const tenantId = await newBroker();
    await expect(
      createEmployerAudited(tenantId, 'employer.classified' as AuditAction),
    ).rejects.toBeInstanceOf(AuditActionWithoutWordsError);
    // Words kept only for the records already written are no licence to write more.
    await expect(
      createEmployerAudited(tenantId, 'payroll_upload.viewed' as AuditAction),
    ).rejects.toBeInstanceOf(AuditActionWithoutWordsError);
    expect(await countAsOwner('employers', 'broker_id', tenantId)).toBe(0);
    expect(await countAsOwner('audit_log', 'tenant_id', tenantId)).toBe(0);
  });

  it('does not let a tenant actor write a record into another tenant', async () => {
    const [own, other] = [await newBroker(), await newBroker()];
    const actor = tenantActor(own);
    await expect(
      withActor(t.database, actor, (tx) =>
        audit.record(tx, actor, {
          action: 'employer.updated',
          entityType: 'employer',
          entityId: 'x',
          tenantId: other,
          previousState: null,
          newState: null,
        }),
      ),
    ).rejects.toBeInstanceOf(AuditTenantMismatchError);
    expect(await countAsOwner('audit_log', 'tenant_id', other)).toBe(0);
  });

  it('is refused by row-level security when the restricted role inserts for another tenant directly', async () => {
    const [own, other] = [await newBroker(), await newBroker()];
    await expect(
      withActor(t.database, tenantActor(own), (tx) =>
        tx.execute(sql`insert into audit_log (id, tenant_id, chain_key, chain_index, previous_hash, hash, hash_version, key_id, actor_id, actor_type, action, entity_type, entity_id, ip_address, user_agent, timestamp)
          values (${createId()}, ${other}, ${other}, 1, ${GENESIS_HASH}, 'x', 2, 'k', 'u', 'BrokerAdmin', 'employer.created', 'employer', 'e', 'unknown', 'unknown', now())`),
      ),
    ).rejects.toThrow();
    expect(await countAsOwner('audit_log', 'tenant_id', other)).toBe(0);
  });

  for (const [statement, build] of [
    ['UPDATE', () => sql`update audit_log set action = 'employer.deleted'`],
    ['DELETE', () => sql`delete from audit_log`],
    ['TRUNCATE', () => sql`truncate audit_log`],
  ] as const) {
    it(`refuses ${statement} of audit records to the runtime role`, async () => {
      const tenantId = await newBroker();
      await createEmployerAudited(tenantId);
      for (const actor of [tenantActor(tenantId), platformActor()]) {
        const message = await databaseErrorOf(
          withActor(t.database, actor, (tx) => tx.execute(build())),
        );
        expect(message).toMatch(/permission denied/);
      }
      expect(await countAsOwner('audit_log', 'tenant_id', tenantId)).toBe(1);
    });

    it(`refuses ${statement} of audit records even to the tables' owner`, async () => {
      const tenantId = await newBroker();
      await createEmployerAudited(tenantId);
      expect(await databaseErrorOf(ownerOf(t.database).execute(build()))).toMatch(/append-only/);
      expect(await countAsOwner('audit_log', 'tenant_id', tenantId)).toBe(1);
    });
  }
});

describe('when a record takes its place in the chain', () => {
  it('leaves no record when the transaction fails after recording, and the chain goes on without a gap', async () => {
    const tenantId = await newBroker();
    const actor = tenantActor(tenantId);
    await expect(
      withActor(t.database, actor, async (tx) => {
        await audit.record(tx, actor, {
          action: 'employer.updated',
          entityType: 'employer',
          entityId: 'e',
          tenantId,
          previousState: null,
          newState: null,
        });
        throw new Error('the work failed after its record was made');
      }),
    ).rejects.toThrow('the work failed');
    expect(await countAsOwner('audit_log', 'tenant_id', tenantId)).toBe(0);
    await createEmployerAudited(tenantId);
    expect(await verifyTestChains(t.database, { tenantId })).toMatchObject({
      records: 1,
      broken: [],
    });
  });

  it('refuses a record on a transaction that would never write it', async () => {
    const tenantId = await newBroker();
    const actor = tenantActor(tenantId);
    const change = {
      action: 'employer.updated',
      entityType: 'employer',
      entityId: 'e',
      tenantId,
      previousState: null,
      newState: null,
    } as const;
    // Opened beneath withActor: nothing would append its records before COMMIT.
    await expect(
      t.database.transaction([], (tx) => audit.record(tx, actor, change)),
    ).rejects.toBeInstanceOf(TransactionNotFinishableError);
    // A transaction already committed: a record added now would be lost.
    let finished: Transaction | undefined;
    await withActor(t.database, actor, async (tx) => {
      await audit.record(tx, actor, change);
      finished = tx;
    });
    await expect(audit.record(finished as Transaction, actor, change)).rejects.toBeInstanceOf(
      TransactionNotFinishableError,
    );
    expect(await countAsOwner('audit_log', 'tenant_id', tenantId)).toBe(1);
  });

  // PGlite has one connection and runs transactions one after another, so two cannot overlap.
  it.skipIf(!onPostgres)(
    'a long transaction that has recorded does not hold up another audited write of its tenant, and records chain in commit order',
    async () => {
      const tenantId = await newBroker();
      const actor = tenantActor(tenantId);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let recorded: () => void = () => {};
      const hasRecorded = new Promise<void>((resolve) => {
        recorded = resolve;
      });
      // An import, say: records early, then keeps writing rows until `held` settles.
      const longId = createId();
      const long = withActor(t.database, actor, async (tx) => {
        const id = await audit.record(tx, actor, {
          action: 'import.succeeded',
          entityType: 'import',
          entityId: longId,
          tenantId,
          previousState: null,
          newState: null,
        });
        recorded();
        await held;
        return id;
      });
      await hasRecorded;
      const outcome = await Promise.race([
        createEmployerAudited(tenantId).then(() => 'committed' as const),
        new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 5_000)),
      ]);
      release();
      const longRecordId = await long;
      expect(outcome).toBe('committed');

      const chain = await withActor(t.database, actor, (tx) =>
        tx.select().from(auditLog).orderBy(auditLog.chainIndex),
      );
      expect(chain.map((record) => [record.chainIndex, record.action])).toEqual([
        [1, 'employer.created'],
        [2, 'import.succeeded'],
      ]);
      expect(chain[1]?.id).toBe(longRecordId);
      expect(await verifyTestChains(t.database, { tenantId })).toMatchObject({
        records: 2,
        broken: [],
      });
    },
    20_000,
  );
});

describe('the chain verifier', () => {
  async function tamper(statement: ReturnType<typeof sql>) {
    // What an attacker with the owner's credentials could do: switch the guard off, edit, switch it back.
    await ownerOf(t.database).transaction(async (tx) => {
      await tx.execute(sql`alter table audit_log disable trigger audit_log_no_update_or_delete`);
      await tx.execute(statement);
      await tx.execute(sql`alter table audit_log enable trigger audit_log_no_update_or_delete`);
    });
  }

  it('names the first record edited in place', async () => {
    const tenantId = await newBroker();
    for (let i = 0; i < 4; i += 1) await createEmployerAudited(tenantId);
    await tamper(
      sql`update audit_log set new_state = '{"name":"Forged"}' where chain_key = ${tenantId} and chain_index = 2`,
    );
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report.broken).toEqual([
      expect.objectContaining({
        chainKey: tenantId,
        chainIndex: 2,
        fault: { kind: 'hash-mismatch' },
      }),
    ]);
  });

  it('names the gap a removed record leaves', async () => {
    const tenantId = await newBroker();
    for (let i = 0; i < 3; i += 1) await createEmployerAudited(tenantId);
    await tamper(sql`delete from audit_log where chain_key = ${tenantId} and chain_index = 2`);
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report.broken).toEqual([
      expect.objectContaining({ chainIndex: 3, fault: { kind: 'gap', expectedIndex: 2 } }),
    ]);
  });

  it('detects a record whose hash was recomputed to hide an edit', async () => {
    const tenantId = await newBroker();
    for (let i = 0; i < 3; i += 1) await createEmployerAudited(tenantId);
    await tamper(
      sql`update audit_log set hash = repeat('f', 64) where chain_key = ${tenantId} and chain_index = 1`,
    );
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report.broken[0]).toMatchObject({ chainIndex: 1, fault: { kind: 'hash-mismatch' } });
  });

  it('is a CLI command that exits 1, names the broken link and prints the chain head', async () => {
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      APP_ENV: 'test',
      AUDIT_CHAIN_KEY: TEST_SECRETS.AUDIT_CHAIN_KEY,
    };
    const tenantId = createId();
    if (onPostgres && t.url) {
      env.DATABASE_URL = t.url;
      env.DATA_DIR = testDataDir();
      await withActor(t.database, platformActor(), (tx) =>
        tx.insert(brokers).values({ id: tenantId, name: 'CLI' }),
      );
      for (let i = 0; i < 2; i += 1) await createEmployerAudited(tenantId);
      await tamper(
        sql`update audit_log set entity_id = 'other' where chain_key = ${tenantId} and chain_index = 2`,
      );
    } else {
      // The CLI is another process: give it a PGlite database on disk, prepared and closed here.
      env.DATA_DIR = testDataDir();
      const onDisk = await openPglite(`${env.DATA_DIR}/pglite`);
      await migrate(onDisk);
      const actor = platformActor();
      await withActor(onDisk, actor, async (tx) => {
        await tx.insert(brokers).values({ id: tenantId, name: 'CLI' });
        for (let i = 0; i < 2; i += 1) {
          await audit.record(tx, actor, {
            action: 'broker.updated',
            entityType: 'broker',
            entityId: tenantId,
            tenantId,
            previousState: null,
            newState: { i },
          });
        }
      });
      await onDisk.db.execute(
        sql`alter table audit_log disable trigger audit_log_no_update_or_delete`,
      );
      await onDisk.db.execute(sql`update audit_log set entity_id = 'other' where chain_index = 2`);
      await onDisk.close();
    }
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', 'audit:verify', '--tenant', tenantId],
      {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`BROKEN chain ${tenantId}: record \\w+ at position 2 \\(hash-mismatch\\)`),
    );
    // The head it read last, as an evidence pack's manifest names a chain's head.
    expect(result.stdout).toMatch(
      new RegExp(`Head of chain ${tenantId}: position 2, record \\w+, hash [0-9a-f]{64}`),
    );
  });
});
