import { createId } from '@paralleldrive/cuid2';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADDRESSED_HASH,
  type ChainLink,
  computeKeyedHash,
  computeLegacyHash,
  GENESIS_HASH,
  KEYED_HASH,
  LEGACY_HASH,
} from '../../src/server/platform/audit/audit-chain.js';
import { chainsAreSound, sealAuditCutover } from '../../src/server/platform/audit/audit-log.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { auditLog, brokers } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { anonymousActor } from '../../src/server/platform/tenancy/actor.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import { TEST_CHAIN_KEY, testAuditService, verifyTestChains } from '../helpers/audit.js';
import { databaseErrorOf, openTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Every record keeps the client address the server trusted, covered by its MAC (hash version 3).
 * Records of versions 1 and 2 must keep verifying, and the address must not be changeable,
 * removable or addable unnoticed by someone with the owner's credentials but not AUDIT_CHAIN_KEY
 * (docs/decisions/0051-readable-audit-log.md).
 */

const audit = testAuditService();

/** As the tables' owner, with the append-only guard off: what an attacker can do. */
function asOwner(database: Database, ...statements: SQL[]): Promise<void> {
  return database.withMigrationConnection(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger audit_log_no_update_or_delete`);
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_log enable trigger audit_log_no_update_or_delete`);
  });
}

/** The same, with the address's check constraint dropped as well: the owner can do that too. */
function asOwnerWithoutCheck(database: Database, ...statements: SQL[]): Promise<void> {
  return asOwner(
    database,
    sql`alter table audit_log drop constraint if exists audit_log_client_address_sealed`,
    ...statements,
  );
}

function baseLink(tenantId: string, chainIndex: number, previousHash: string) {
  return {
    id: createId(),
    tenantId,
    chainKey: tenantId,
    chainIndex,
    previousHash,
    actorId: 'u-before',
    actorType: 'BrokerAdmin',
    actorTenantId: tenantId,
    action: 'employer.updated',
    entityType: 'employer',
    entityId: `e-${chainIndex}`,
    previousState: null,
    newState: { step: chainIndex },
    ipAddress: '203.0.113.9',
    userAgent: 'an older version of the service',
    timestamp: new Date(Date.UTC(2025, 0, chainIndex)),
    clientAddress: null,
  };
}

/** Records as the service wrote them before the keyed chain: two with a plain SHA-256. */
async function legacyRecords(database: Database, tenantId: string): Promise<ChainLink[]> {
  const links: ChainLink[] = [];
  for (let index = 1; index <= 2; index += 1) {
    const previousHash = links.at(-1)?.hash ?? GENESIS_HASH;
    const link = {
      ...baseLink(tenantId, index, previousHash),
      hashVersion: LEGACY_HASH,
      keyId: null,
    };
    links.push({ ...link, hash: computeLegacyHash(link) });
  }
  await database.withMigrationConnection((tx) => tx.insert(auditLog).values(links));
  return links;
}

/**
 * After the cut-over: two keyed version-2 records as code from before the client address wrote
 * them (no address), then two records as the service writes them now (version 3).
 */
async function laterRecords(database: Database, tenantId: string, legacy: ChainLink[]) {
  const links: ChainLink[] = [];
  for (let index = 3; index <= 4; index += 1) {
    const previousHash = (links.at(-1) ?? legacy.at(-1))?.hash ?? GENESIS_HASH;
    const link = {
      ...baseLink(tenantId, index, previousHash),
      hashVersion: KEYED_HASH,
      keyId: TEST_CHAIN_KEY.id,
    };
    links.push({ ...link, hash: computeKeyedHash(link, TEST_CHAIN_KEY) });
  }
  await database.withMigrationConnection((tx) => tx.insert(auditLog).values(links));
  const actor = tenantActor(tenantId);
  for (let i = 0; i < 2; i += 1) {
    await withActor(database, actor, (tx) =>
      audit.record(tx, actor, {
        action: 'employer.updated',
        entityType: 'employer',
        entityId: `now-${i}`,
        tenantId,
        previousState: null,
        newState: { now: i },
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

async function newBroker(database: Database): Promise<string> {
  const id = createId();
  await withActor(database, platformActor(), (tx) =>
    tx.insert(brokers).values({ id, name: `Broker ${id}` }),
  );
  return id;
}

let t: TestDatabase;
let tenants: string[];
beforeAll(async () => {
  t = await openTestDatabase();
  tenants = [];
  const legacy = new Map<string, ChainLink[]>();
  for (let i = 0; i < 6; i += 1) {
    const tenantId = await newBroker(t.database);
    tenants.push(tenantId);
    legacy.set(tenantId, await legacyRecords(t.database, tenantId));
  }
  expect(await sealAuditCutover(t.database, TEST_CHAIN_KEY)).toBe('written');
  for (const tenantId of tenants) {
    await laterRecords(t.database, tenantId, legacy.get(tenantId) ?? []);
  }
});
afterAll(() => t.dispose());
const tenant = (n: number) => tenants[n] as string;

describe('the client address in the audit chain', () => {
  it('is sealed into every new record (version 3), and records of versions 1 and 2 keep verifying', async () => {
    const chain = await chainOf(t.database, tenant(0));
    expect(chain.map((link) => [link.hashVersion, link.clientAddress])).toEqual([
      [LEGACY_HASH, null],
      [LEGACY_HASH, null],
      [KEYED_HASH, null],
      [KEYED_HASH, null],
      [ADDRESSED_HASH, '192.0.2.10'],
      [ADDRESSED_HASH, '192.0.2.10'],
    ]);
    expect(chain[4]?.previousHash).toBe(chain[3]?.hash);
    const report = await verifyTestChains(t.database);
    expect(report).toMatchObject({ checkpoint: 'sealed', broken: [], records: 36 });
    expect(chainsAreSound(report)).toBe(true);
  });

  it('records an anonymous request’s address too', async () => {
    const tenantId = tenant(0);
    const actor = anonymousActor(tenantId, {
      ipAddress: '198.51.100.8',
      userAgent: 'a browser',
      clientAddress: '198.51.100.8',
    });
    await withActor(t.database, actor, (tx) =>
      audit.record(tx, actor, {
        action: 'user.password_reset_requested',
        entityType: 'user',
        entityId: 'someone',
        tenantId,
        previousState: null,
        newState: null,
      }),
    );
    const last = (await chainOf(t.database, tenantId)).at(-1);
    expect(last).toMatchObject({ actorType: 'Anonymous', clientAddress: '198.51.100.8' });
    expect(chainsAreSound(await verifyTestChains(t.database, { tenantId }))).toBe(true);
  });

  it('says `local` for the service’s own actor and `unknown` for any other actor without one', async () => {
    const { clientAddress: _none, ...system } = { ...platformActor(), userId: 'system' };
    const { clientAddress: _also, ...nameless } = tenantActor(tenant(0));
    for (const actor of [system, nameless]) {
      await withActor(t.database, actor, (tx) =>
        audit.record(tx, actor, {
          action: 'broker.updated',
          entityType: 'broker',
          entityId: tenant(0),
          tenantId: tenant(0),
          previousState: null,
          newState: null,
        }),
      );
    }
    const [before, last] = (await chainOf(t.database, tenant(0))).slice(-2);
    expect([before?.clientAddress, last?.clientAddress]).toEqual(['local', 'unknown']);
  });

  it('catches a client address changed on a version-3 record', async () => {
    const tenantId = tenant(1);
    const [, , , , fifth] = await chainOf(t.database, tenantId);
    await asOwner(
      t.database,
      sql`update audit_log set client_address = '10.0.0.1' where id = ${fifth?.id as string}`,
    );
    expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
      expect.objectContaining({ chainIndex: 5, fault: { kind: 'hash-mismatch' } }),
    ]);
  });

  it('catches a version-3 record passed off as version 2 with its address removed', async () => {
    const tenantId = tenant(2);
    const [, , , , fifth] = await chainOf(t.database, tenantId);
    // Without the key the MAC cannot be remade: the stored one was made over version 3's text.
    await asOwner(
      t.database,
      sql`update audit_log set hash_version = 2, client_address = null where id = ${fifth?.id as string}`,
    );
    expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
      expect.objectContaining({ chainIndex: 5, fault: { kind: 'hash-mismatch' } }),
    ]);
  });

  it('is refused by the database when removed from a version-3 record, or added to an older one', async () => {
    const tenantId = tenant(3);
    const [, , third, , fifth] = await chainOf(t.database, tenantId);
    for (const statement of [
      sql`update audit_log set client_address = null where id = ${fifth?.id as string}`,
      sql`update audit_log set client_address = '192.0.2.1' where id = ${third?.id as string}`,
    ]) {
      expect(await databaseErrorOf(asOwner(t.database, statement))).toMatch(
        /audit_log_client_address_sealed/,
      );
    }
  });

  it('is caught when removed from a version-3 record past the database’s check', async () => {
    const tenantId = tenant(4);
    const [, , , , , sixth] = await chainOf(t.database, tenantId);
    await asOwnerWithoutCheck(
      t.database,
      sql`update audit_log set client_address = null where id = ${sixth?.id as string}`,
    );
    expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
      expect.objectContaining({ chainIndex: 6, fault: { kind: 'client-address-not-sealed' } }),
    ]);
  });

  it('is caught when planted on a record whose seal does not cover it (versions 1 and 2)', async () => {
    const tenantId = tenant(5);
    const [, , third] = await chainOf(t.database, tenantId);
    await asOwnerWithoutCheck(
      t.database,
      sql`update audit_log set client_address = '192.0.2.1' where id = ${third?.id as string}`,
    );
    expect((await verifyTestChains(t.database, { tenantId })).broken).toEqual([
      expect.objectContaining({ chainIndex: 3, fault: { kind: 'client-address-not-sealed' } }),
    ]);
  });
});
