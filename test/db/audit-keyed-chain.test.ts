import { createId } from '@paralleldrive/cuid2';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditChainKey,
  type ChainLink,
  type CheckpointHeads,
  computeCheckpointMac,
  computeKeyedHash,
  computeLegacyHash,
  GENESIS_HASH,
} from '../../src/server/platform/audit/audit-chain.js';
import {
  chainsAreSound,
  KEYED_CHAIN_MIGRATION,
  sealAuditCutover,
  sealCutoverOnUpgrade,
} from '../../src/server/platform/audit/audit-log.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { auditChainCheckpoint, auditLog, brokers } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import { TEST_CHAIN_KEY, testAuditService, verifyTestChains } from '../helpers/audit.js';
import { databaseErrorOf, openTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Someone with the database owner's credentials rewrites records and recomputes what they can;
 * audit:verify must still see it (docs/decisions/0041-keyed-audit-chain.md).
 */

const audit = testAuditService();
const WRONG_KEY = auditChainKey('d'.repeat(64));

/** As the tables' owner, with the append-only guard switched off: what an attacker can do. */
function asOwner(database: Database, ...statements: SQL[]): Promise<void> {
  return database.withMigrationConnection(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger audit_log_no_update_or_delete`);
    await tx.execute(
      sql`alter table audit_chain_checkpoint disable trigger audit_chain_checkpoint_no_update_or_delete`,
    );
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_log enable trigger audit_log_no_update_or_delete`);
    await tx.execute(
      sql`alter table audit_chain_checkpoint enable trigger audit_chain_checkpoint_no_update_or_delete`,
    );
  });
}

async function newBroker(database: Database): Promise<string> {
  const id = createId();
  await withActor(database, platformActor(), (tx) =>
    tx.insert(brokers).values({ id, name: `Broker ${id}` }),
  );
  return id;
}

function legacyLink(tenantId: string, chainIndex: number, previousHash: string): ChainLink {
  const link = {
    id: createId(),
    tenantId,
    chainKey: tenantId,
    chainIndex,
    previousHash,
    hashVersion: 1,
    keyId: null,
    actorId: 'u-legacy',
    actorType: 'BrokerAdmin',
    actorTenantId: tenantId,
    action: 'employer.updated',
    entityType: 'employer',
    entityId: `e-${chainIndex}`,
    previousState: null,
    newState: { step: chainIndex },
    ipAddress: '203.0.113.9',
    userAgent: 'before the keyed chain',
    timestamp: new Date('2025-01-02T03:04:05.678Z'),
    clientAddress: null,
    hash: '',
  };
  return { ...link, hash: computeLegacyHash(link) };
}

/** Records as the service wrote them before the keyed chain: plain SHA-256. */
async function seedLegacyChain(database: Database, tenantId: string, length: number) {
  const links: ChainLink[] = [];
  for (let index = 1; index <= length; index += 1) {
    links.push(legacyLink(tenantId, index, links.at(-1)?.hash ?? GENESIS_HASH));
  }
  await database.withMigrationConnection((tx) => tx.insert(auditLog).values(links));
  return links;
}

async function recordKeyed(database: Database, tenantId: string, count: number) {
  const actor = tenantActor(tenantId);
  for (let i = 0; i < count; i += 1) {
    await withActor(database, actor, (tx) =>
      audit.record(tx, actor, {
        action: 'employer.updated',
        entityType: 'employer',
        entityId: `k-${i}`,
        tenantId,
        previousState: null,
        newState: { keyed: i },
      }),
    );
  }
}

async function chainOf(database: Database, tenantId: string): Promise<ChainLink[]> {
  return withActor(database, platformActor(), (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(sql`${auditLog.chainKey} = ${tenantId}`)
      .orderBy(auditLog.chainIndex),
  );
}

/** Rewrites one stored record to `forged` (every covered field and its seal). */
function rewrite(forged: ChainLink): SQL {
  return sql`update audit_log set new_state = ${JSON.stringify(forged.newState)}::jsonb,
    hash = ${forged.hash}, hash_version = ${forged.hashVersion}, key_id = ${forged.keyId},
    client_address = ${forged.clientAddress}
    where id = ${forged.id}`;
}

/**
 * A database as it stood when the keyed chain arrived: `legacyTenants` with three plain-hash
 * records each, sealed by the cut-over checkpoint, then keyed records after them.
 */
async function cutOverDatabase(legacyTenants: number) {
  const t = await openTestDatabase();
  const tenants: string[] = [];
  for (let i = 0; i < legacyTenants; i += 1) {
    const tenantId = await newBroker(t.database);
    await seedLegacyChain(t.database, tenantId, 3);
    tenants.push(tenantId);
  }
  expect(await sealAuditCutover(t.database, TEST_CHAIN_KEY)).toBe('written');
  for (const tenantId of tenants) await recordKeyed(t.database, tenantId, 2);
  return { t, tenants };
}

describe('the keyed audit chain after the cut-over', () => {
  let t: TestDatabase;
  let tenants: string[];
  beforeAll(async () => {
    ({ t, tenants } = await cutOverDatabase(6));
  });
  afterAll(() => t.dispose());
  const tenant = (n: number) => tenants[n] as string;

  it('keeps records written before the keyed chain verifying, and continues each chain across the cut-over', async () => {
    const report = await verifyTestChains(t.database);
    expect(report).toMatchObject({ checkpoint: 'sealed', broken: [] });
    expect(chainsAreSound(report)).toBe(true);
    const chain = await chainOf(t.database, tenant(0));
    expect(chain.map((link) => [link.chainIndex, link.hashVersion])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 3],
      [5, 3],
    ]);
    expect(chain[3]?.previousHash).toBe(chain[2]?.hash);
    expect(chain[3]?.keyId).toBe(TEST_CHAIN_KEY.id);
  });

  it('catches a keyed record edited and resealed with a recomputed plain SHA-256', async () => {
    const tenantId = tenant(1);
    const [, , , fourth] = await chainOf(t.database, tenantId);
    const edited = { ...(fourth as ChainLink), newState: { keyed: 'forged' } };
    await asOwner(t.database, rewrite({ ...edited, hash: computeLegacyHash(edited) }));
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report.broken).toEqual([
      expect.objectContaining({ chainIndex: 4, fault: { kind: 'hash-mismatch' } }),
    ]);
  });

  it('catches a keyed record downgraded to a plain-hash record past its chain’s sealed head', async () => {
    const tenantId = tenant(2);
    const [, , , , fifth] = await chainOf(t.database, tenantId);
    const downgraded = {
      ...(fifth as ChainLink),
      newState: { keyed: 'forged' },
      hashVersion: 1,
      keyId: null,
      clientAddress: null,
    };
    await asOwner(t.database, rewrite({ ...downgraded, hash: computeLegacyHash(downgraded) }));
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report.broken).toEqual([
      expect.objectContaining({ chainIndex: 5, fault: { kind: 'unkeyed-after-cutover' } }),
    ]);
  });

  it('catches a keyed record resealed with another key, under our key id or its own', async () => {
    const tenantId = tenant(3);
    const [, , , fourth] = await chainOf(t.database, tenantId);
    const underOurId = { ...(fourth as ChainLink), newState: { keyed: 'forged' } };
    const impostor = { ...WRONG_KEY, id: TEST_CHAIN_KEY.id };
    await asOwner(
      t.database,
      rewrite({ ...underOurId, hash: computeKeyedHash(underOurId, impostor) }),
    );
    expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
      expect.objectContaining({ chainIndex: 4, fault: { kind: 'hash-mismatch' } }),
    ]);

    const otherTenant = tenant(4);
    const [, , , , fifth] = await chainOf(t.database, otherTenant);
    const underItsId = {
      ...(fifth as ChainLink),
      newState: { keyed: 'forged' },
      keyId: WRONG_KEY.id,
    };
    await asOwner(
      t.database,
      rewrite({ ...underItsId, hash: computeKeyedHash(underItsId, WRONG_KEY) }),
    );
    expect((await verifyTestChains(t.database, { tenantId: otherTenant })).broken).toEqual([
      expect.objectContaining({ chainIndex: 5, fault: { kind: 'unknown-key' } }),
    ]);
  });

  it('catches plain-hash records rewritten below the sealed head, even with every hash recomputed', async () => {
    const tenantId = tenant(5);
    const chain = await chainOf(t.database, tenantId);
    // Rewrite the whole legacy prefix consistently: only the sealed head can tell.
    let previousHash = GENESIS_HASH;
    const statements: SQL[] = [];
    for (const link of chain.slice(0, 3)) {
      const forged = { ...link, previousHash, newState: { step: 'forged' } };
      const hash = computeLegacyHash(forged);
      statements.push(
        sql`update audit_log set new_state = '{"step":"forged"}'::jsonb, previous_hash = ${previousHash}, hash = ${hash} where id = ${link.id}`,
      );
      previousHash = hash;
    }
    await asOwner(t.database, ...statements);
    const report = await verifyTestChains(t.database, { tenantId });
    expect(report.broken).toEqual([
      expect.objectContaining({ chainIndex: 3, fault: { kind: 'checkpoint-mismatch' } }),
    ]);
  });

  it('requires a chain begun after the cut-over to be keyed from its first record', async () => {
    const tenantId = await newBroker(t.database);
    await recordKeyed(t.database, tenantId, 2);
    const [first] = await chainOf(t.database, tenantId);
    const downgraded = {
      ...(first as ChainLink),
      hashVersion: 1,
      keyId: null,
      clientAddress: null,
    };
    await asOwner(t.database, rewrite({ ...downgraded, hash: computeLegacyHash(downgraded) }));
    expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
      expect.objectContaining({ chainIndex: 1, fault: { kind: 'unkeyed-after-cutover' } }),
    ]);
  });

  it('refuses, at the database, a record that does not say how it is sealed (code from before the keyed chain)', async () => {
    const tenantId = await newBroker(t.database);
    const message = await databaseErrorOf(
      withActor(t.database, tenantActor(tenantId), (tx) =>
        tx.execute(sql`insert into audit_log (id, tenant_id, chain_key, chain_index, previous_hash, hash, actor_id, actor_type, action, entity_type, entity_id, ip_address, user_agent, timestamp)
          values (${createId()}, ${tenantId}, ${tenantId}, 1, ${GENESIS_HASH}, 'h', 'u', 'BrokerAdmin', 'employer.created', 'employer', 'e', 'unknown', 'unknown', now())`),
      ),
    );
    expect(message).toMatch(/hash_version/);
  });
});

describe('the cut-over checkpoint', () => {
  it('is written once when several instances start together', async () => {
    const t = await openTestDatabase();
    try {
      const tenantId = await newBroker(t.database);
      const links = await seedLegacyChain(t.database, tenantId, 2);
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () => sealAuditCutover(t.database, TEST_CHAIN_KEY)),
      );
      expect(outcomes.filter((outcome) => outcome === 'written')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'present')).toHaveLength(3);
      const rows = await withActor(t.database, platformActor(), (tx) =>
        tx.select().from(auditChainCheckpoint),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.heads).toEqual({
        [tenantId]: { index: 2, id: links[1]?.id, hash: links[1]?.hash },
      });
    } finally {
      await t.dispose();
    }
  });

  it('once removed, leaves every plain-hash record refused, and is not written again', async () => {
    const { t, tenants } = await cutOverDatabase(1);
    try {
      const tenantId = tenants[0] as string;
      await asOwner(t.database, sql`delete from audit_chain_checkpoint`);
      const report = await verifyTestChains(t.database);
      expect(report.checkpoint).toBe('missing');
      expect(report.broken).toEqual([
        expect.objectContaining({
          chainKey: tenantId,
          chainIndex: 1,
          fault: { kind: 'unkeyed-after-cutover' },
        }),
      ]);
      // Keyed records exist, so the cut-over happened: sealing the present state would vouch
      // for whatever plain-hash records were put there since.
      expect(await sealAuditCutover(t.database, TEST_CHAIN_KEY)).toBe('refused');
      expect((await verifyTestChains(t.database)).checkpoint).toBe('missing');
    } finally {
      await t.dispose();
    }
  });

  it('is not written again by a later start-up, even after every keyed record was made plain', async () => {
    const t = await openTestDatabase();
    try {
      const tenantId = await newBroker(t.database);
      await seedLegacyChain(t.database, tenantId, 2);
      // The start-up that applied the keyed chain's migration seals it …
      expect(await sealCutoverOnUpgrade(t.database, TEST_CHAIN_KEY, [KEYED_CHAIN_MIGRATION])).toBe(
        'written',
      );
      // … and someone with database access removes the seal: with no keyed record left, the
      // database looks as it did before the upgrade. A later start applies no migration.
      await asOwner(t.database, sql`delete from audit_chain_checkpoint`);
      expect(await sealCutoverOnUpgrade(t.database, TEST_CHAIN_KEY, [])).toBe('not-this-run');
      expect((await verifyTestChains(t.database)).checkpoint).toBe('missing');
    } finally {
      await t.dispose();
    }
  });

  it('is caught when forged: a seal under another key, or heads changed under the real seal', async () => {
    const { t, tenants } = await cutOverDatabase(1);
    try {
      const tenantId = tenants[0] as string;
      // Vouch for a longer legacy prefix, so that keyed records could pass as plain ones.
      const [, , , fourth] = await chainOf(t.database, tenantId);
      const heads: CheckpointHeads = {
        [tenantId]: { index: 5, id: 'x', hash: (fourth as ChainLink).hash },
      };
      for (const [keyId, mac] of [
        [WRONG_KEY.id, computeCheckpointMac(heads, WRONG_KEY)],
        [TEST_CHAIN_KEY.id, computeCheckpointMac(heads, { ...WRONG_KEY, id: TEST_CHAIN_KEY.id })],
      ] as const) {
        await asOwner(
          t.database,
          sql`delete from audit_chain_checkpoint`,
          sql`insert into audit_chain_checkpoint (id, key_id, heads, mac) values (1, ${keyId}, ${JSON.stringify(heads)}::jsonb, ${mac})`,
        );
        const report = await verifyTestChains(t.database);
        expect(report.checkpoint).toBe('forged');
        expect(chainsAreSound(report)).toBe(false);
        expect(report.broken).toEqual([
          expect.objectContaining({ chainIndex: 1, fault: { kind: 'unkeyed-after-cutover' } }),
        ]);
      }
    } finally {
      await t.dispose();
    }
  });

  it('is caught when records it vouches for are removed from the end of a chain', async () => {
    const t = await openTestDatabase();
    try {
      const tenantId = await newBroker(t.database);
      const links = await seedLegacyChain(t.database, tenantId, 3);
      expect(await sealAuditCutover(t.database, TEST_CHAIN_KEY)).toBe('written');
      await asOwner(t.database, sql`delete from audit_log where id = ${links[2]?.id as string}`);
      expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
        expect.objectContaining({ chainIndex: 3, fault: { kind: 'checkpoint-head-missing' } }),
      ]);
      await asOwner(t.database, sql`delete from audit_log where chain_key = ${tenantId}`);
      expect((await verifyTestChains(t.database)).broken).toEqual([
        expect.objectContaining({
          chainKey: tenantId,
          fault: { kind: 'checkpoint-head-missing' },
        }),
      ]);
    } finally {
      await t.dispose();
    }
  });
});
