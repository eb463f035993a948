import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createId } from '@paralleldrive/cuid2';
import { eq, ne, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import {
  type PpsRotationProgress,
  ppsRotateCommand,
  rotatePpsKeys,
} from '../../src/server/modules/members/pps-rotation.service.js';
import {
  createPpsKeyring,
  ppsKeyId,
  UnknownPpsKeyError,
} from '../../src/server/platform/crypto/pps-keyring.js';
import { SealedBoxError } from '../../src/server/platform/crypto/sealed-box.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { auditLog, members } from '../../src/server/platform/db/schema.js';
import { withActor, withPlatformReadOnly } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { testAuditService, verifyTestChains } from '../helpers/audit.js';
import { TEST_SECRETS, testDataDir } from '../helpers/config.js';
import { onPostgres, openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createBroker, createEmployer, createScheme } from '../helpers/factories.js';
import { issuedPpsNumbers, newPpsNumber } from '../helpers/pps.js';

/** The key the test factories seal with is the one being retired. */
const OLD_KEY = TEST_SECRETS.PPS_ENCRYPTION_KEY;
const NEW_KEY = 'c'.repeat(64);
const STRAY_KEY = 'd'.repeat(64);
const NEW_KEY_ID = ppsKeyId(NEW_KEY);
const OLD_KEY_ID = ppsKeyId(OLD_KEY);

const oldRing = createPpsKeyring({ current: OLD_KEY, previous: null });
const newOnlyRing = createPpsKeyring({ current: NEW_KEY, previous: null });
const rotationRing = createPpsKeyring({ current: NEW_KEY, previous: OLD_KEY });
const ROTATION_KEYS = { current: NEW_KEY, previous: OLD_KEY };

const audit = testAuditService();

interface Seeded {
  id: string;
  brokerId: string;
  ppsNumber: string;
}

/** Everything the command printed in this file, scanned for PPS numbers at the end of each test. */
let printed: string[] = [];
const output = {
  out: (line: string) => printed.push(line),
  err: (line: string) => printed.push(line),
};

let testDatabase: TestDatabase;
let database: Database;

beforeEach(async () => {
  testDatabase = await openTestDatabase();
  database = testDatabase.database;
  printed = [];
});

afterEach(async () => {
  const text = printed.join('\n');
  for (const ppsNumber of issuedPpsNumbers) expect(text).not.toContain(ppsNumber);
  await testDatabase.dispose();
});

/** A tenant with an employer and a scheme, as the rows' foreign keys need. */
async function createTenantScheme(db: Database) {
  const brokerId = await createBroker(db);
  const employerId = await createEmployer(db, brokerId);
  const schemeId = await createScheme(db, { id: employerId, brokerId });
  return { brokerId, employerId, schemeId };
}

/**
 * `count` members sealed as the service seals them (under `key`), inserted in a few statements:
 * the factory's one transaction per member is too slow for thousands.
 */
async function seedMembers(
  db: Database,
  scheme: { brokerId: string; employerId: string; schemeId: string },
  count: number,
  {
    key = OLD_KEY,
    deleted = false,
    ppsNumber: given,
  }: { key?: string; deleted?: boolean; ppsNumber?: string } = {},
): Promise<Seeded[]> {
  const ring = createPpsKeyring({ current: key, previous: null });
  const seeded: Seeded[] = [];
  const rows = Array.from({ length: count }, () => {
    const id = createId();
    const ppsNumber = given ?? newPpsNumber();
    const sealed = ring.seal(ppsNumber, { tenantId: scheme.brokerId, memberId: id });
    seeded.push({ id, brokerId: scheme.brokerId, ppsNumber });
    return {
      id,
      ...scheme,
      firstName: 'Aoife',
      lastName: 'Murphy',
      dateOfBirth: '1985-04-12',
      dateJoined: '2015-09-01',
      salaryCents: 5_500_000,
      ppsEncrypted: sealed.encrypted,
      ppsKeyId: sealed.keyId,
      ppsLookup: ring.lookup(scheme.brokerId, ppsNumber),
      deletedAt: deleted ? new Date() : null,
    };
  });
  for (let start = 0; start < rows.length; start += 1_000) {
    await withActor(db, platformActor(), (tx) =>
      tx.insert(members).values(rows.slice(start, start + 1_000)),
    );
  }
  return seeded;
}

function storedMembers(db: Database) {
  return withPlatformReadOnly(db, (tx) =>
    tx
      .select({
        id: members.id,
        brokerId: members.brokerId,
        ppsEncrypted: members.ppsEncrypted,
        ppsLookup: members.ppsLookup,
        ppsKeyId: members.ppsKeyId,
      })
      .from(members),
  );
}

function rotationRecords(db: Database) {
  return withPlatformReadOnly(db, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'pps_key.rotated'))
      .orderBy(auditLog.chainIndex),
  );
}

async function rowsUnderNewKey(db: Database): Promise<number> {
  const [row] = await withPlatformReadOnly(db, (tx) =>
    tx
      .select({ rows: sql<number>`count(*)::int` })
      .from(members)
      .where(eq(members.ppsKeyId, NEW_KEY_ID)),
  );
  return row?.rows ?? 0;
}

/** Every row under the new key, opening (with the new key alone) to the number it was given. */
async function expectAllRotated(db: Database, seeded: Seeded[]): Promise<void> {
  const stored = new Map((await storedMembers(db)).map((row) => [row.id, row]));
  expect(stored.size).toBe(seeded.length);
  for (const member of seeded) {
    const row = stored.get(member.id);
    if (!row) throw new Error(`member ${member.id} is missing`);
    expect(row.ppsKeyId).toBe(NEW_KEY_ID);
    const owner = { tenantId: member.brokerId, memberId: member.id };
    expect(newOnlyRing.open({ encrypted: row.ppsEncrypted, keyId: row.ppsKeyId }, owner)).toBe(
      member.ppsNumber,
    );
    expect(row.ppsLookup).toBe(newOnlyRing.lookup(member.brokerId, member.ppsNumber));
  }
}

describe('PPS key rotation', () => {
  it('re-encrypts every member of two tenants, soft-deleted ones too, audited once', async () => {
    const first = await createTenantScheme(database);
    const second = await createTenantScheme(database);
    const seeded = [
      ...(await seedMembers(database, first, 160)),
      ...(await seedMembers(database, second, 130)),
      ...(await seedMembers(database, second, 10, { deleted: true })),
    ];
    const before = new Map((await storedMembers(database)).map((row) => [row.id, row]));

    const code = await ppsRotateCommand(
      database,
      audit,
      { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR, batchSize: 64 },
      output,
    );

    expect(code).toBe(0);
    await expectAllRotated(database, seeded);
    // Fresh ciphertexts, not the old ones relabelled.
    for (const row of await storedMembers(database)) {
      expect(row.ppsEncrypted).not.toBe(before.get(row.id)?.ppsEncrypted);
    }
    expect(printed.filter((line) => line.startsWith('Batch '))).toEqual([
      'Batch 1: 64 / 300 rotated',
      'Batch 2: 128 / 300 rotated',
      'Batch 3: 192 / 300 rotated',
      'Batch 4: 256 / 300 rotated',
      'Batch 5: 300 / 300 rotated',
    ]);
    expect(printed.join('\n')).toContain('PPS_ENCRYPTION_KEY_PREVIOUS can be removed');

    const records = await rotationRecords(database);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tenantId: null,
      chainKey: '@platform',
      actorId: 'system',
      entityType: 'pps_key',
      entityId: NEW_KEY_ID,
      previousState: null,
      newState: {
        currentKeyId: NEW_KEY_ID,
        previousKeyId: OLD_KEY_ID,
        rowsToRotate: 300,
        batchSize: 64,
      },
    });
    expect((await verifyTestChains(database)).broken).toEqual([]);

    // A second run finds nothing to do, says so, and writes no record.
    printed.length = 0;
    expect(
      await ppsRotateCommand(database, audit, { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR }, output),
    ).toBe(0);
    expect(printed.join('\n')).toContain('Nothing to rotate');
    expect(await rotationRecords(database)).toHaveLength(1);
  });

  it('finishes in a fresh run after a run that died half way', async () => {
    const seeded = await seedMembers(database, await createTenantScheme(database), 200);

    const progress: PpsRotationProgress[] = [];
    await expect(
      rotatePpsKeys(database, audit, {
        keys: ROTATION_KEYS,
        actor: SYSTEM_ACTOR,
        batchSize: 50,
        onBatch: (step) => {
          progress.push(step);
          if (step.batch === 2) throw new Error('crash');
        },
      }),
    ).rejects.toThrow('crash');
    expect(progress.map((step) => step.rotated)).toEqual([50, 100]);

    // Half old, half new, and every row readable while the previous key is set.
    expect(await rowsUnderNewKey(database)).toBe(100);
    for (const row of await storedMembers(database)) {
      const owner = { tenantId: row.brokerId, memberId: row.id };
      const number = rotationRing.open({ encrypted: row.ppsEncrypted, keyId: row.ppsKeyId }, owner);
      expect(number).toBe(seeded.find((member) => member.id === row.id)?.ppsNumber);
    }
    // The crashed run's record committed with its first batch.
    const afterCrash = await rotationRecords(database);
    expect(afterCrash).toHaveLength(1);
    expect(afterCrash[0]?.newState).toMatchObject({ rowsToRotate: 200 });

    const resumed = await rotatePpsKeys(database, audit, {
      keys: ROTATION_KEYS,
      actor: SYSTEM_ACTOR,
      batchSize: 50,
    });
    expect(resumed).toMatchObject({ total: 100, rotated: 100, batches: 2, remaining: 0 });
    await expectAllRotated(database, seeded);
    const records = await rotationRecords(database);
    expect(records.map((record) => record.newState)).toEqual([
      expect.objectContaining({ rowsToRotate: 200 }),
      expect.objectContaining({ rowsToRotate: 100 }),
    ]);
    expect(records[1]?.id).toBe(resumed.auditRecordId);
    expect((await verifyTestChains(database)).broken).toEqual([]);
  });

  it('rotates every row exactly once when two runs overlap', async () => {
    const seeded = await seedMembers(database, await createTenantScheme(database), 240);
    const options = { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR, batchSize: 20 };
    const [one, two] = await Promise.all([
      rotatePpsKeys(database, audit, options),
      rotatePpsKeys(database, audit, options),
    ]);
    expect(one.rotated + two.rotated).toBe(240);
    await expectAllRotated(database, seeded);
    const records = await rotationRecords(database);
    expect(records.length).toBe([one, two].filter((run) => run.rotated > 0).length);
    expect((await verifyTestChains(database)).broken).toEqual([]);
  });

  it('reads a row not yet rotated with the previous key, and only while that key is set', async () => {
    const [member] = await seedMembers(database, await createTenantScheme(database), 1);
    const [row] = await storedMembers(database);
    if (!member || !row) throw new Error('member was not seeded');
    const sealed = { encrypted: row.ppsEncrypted, keyId: row.ppsKeyId };
    const owner = { tenantId: member.brokerId, memberId: member.id };

    expect(row.ppsKeyId).toBe(OLD_KEY_ID);
    expect(rotationRing.open(sealed, owner)).toBe(member.ppsNumber);
    // The duplicate check still finds the old row by its old lookup hash.
    expect(rotationRing.lookups(member.brokerId, member.ppsNumber)).toContain(row.ppsLookup);
    expect(() => newOnlyRing.open(sealed, owner)).toThrow(UnknownPpsKeyError);
    // Bound to its member: the same value presented as another member's does not open.
    expect(() => oldRing.open(sealed, { ...owner, memberId: createId() })).toThrow(SealedBoxError);
  });

  it('refuses to start when PPS_ENCRYPTION_KEY_PREVIOUS is not set but rows need it', async () => {
    await seedMembers(database, await createTenantScheme(database), 5);

    const code = await ppsRotateCommand(
      database,
      audit,
      { keys: { current: NEW_KEY, previous: null }, actor: SYSTEM_ACTOR },
      output,
    );

    expect(code).toBe(1);
    expect(printed.join('\n')).toMatch(
      /PPS_ENCRYPTION_KEY_PREVIOUS is not set, but 5 member\(s\) .*key id [0-9a-f]{16}.*nothing was changed/,
    );
    expect(await rowsUnderNewKey(database)).toBe(0);
    expect(await rotationRecords(database)).toHaveLength(0);
  });

  it('refuses, naming the member, when a row is under a key that is neither current nor previous', async () => {
    const scheme = await createTenantScheme(database);
    await seedMembers(database, scheme, 30);
    const [stray] = await seedMembers(database, scheme, 1, { key: STRAY_KEY });
    if (!stray) throw new Error('member was not seeded');

    const code = await ppsRotateCommand(
      database,
      audit,
      { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR, batchSize: 10 },
      output,
    );

    expect(code).toBe(1);
    const text = printed.join('\n');
    expect(text).toContain('1 member(s) have PPS numbers sealed by a key that is neither');
    expect(text).toContain(stray.id);
    expect(text).toContain(ppsKeyId(STRAY_KEY));
    expect(text).not.toContain(STRAY_KEY);
    for (const row of await storedMembers(database)) expect(text).not.toContain(row.ppsEncrypted);
    expect(await rowsUnderNewKey(database)).toBe(0);
    expect(await rotationRecords(database)).toHaveLength(0);
  });

  it('stops at a row whose tag does not verify, keeping the batches before it', async () => {
    const seeded = await seedMembers(database, await createTenantScheme(database), 120);
    const ordered = [...seeded].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const victim = ordered[110];
    const donor = ordered[0];
    if (!victim || !donor) throw new Error('members were not seeded');
    // Another member's ciphertext copied onto this row: right key, wrong bound context.
    await withActor(database, platformActor(), (tx) =>
      tx.execute(sql`
        update ${members} set pps_encrypted = (select pps_encrypted from ${members} where id = ${donor.id})
        where id = ${victim.id}`),
    );

    const code = await ppsRotateCommand(
      database,
      audit,
      { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR, batchSize: 50 },
      output,
    );

    expect(code).toBe(1);
    const text = printed.join('\n');
    expect(text).toContain(`1 whose authentication tag does not verify`);
    expect(text).toContain(victim.id);
    expect(text).toContain('100 row(s) rotated before it stay rotated');
    for (const row of await storedMembers(database)) expect(text).not.toContain(row.ppsEncrypted);
    // Two batches committed; the third, holding the altered row, rolled back whole.
    expect(await rowsUnderNewKey(database)).toBe(100);
    const [victimRow] = await withPlatformReadOnly(database, (tx) =>
      tx.select().from(members).where(eq(members.id, victim.id)),
    );
    expect(victimRow?.ppsKeyId).toBe(OLD_KEY_ID);
    expect(await rotationRecords(database)).toHaveLength(1);
    expect((await verifyTestChains(database)).broken).toEqual([]);
  });

  it("stops with the database's reason, never the statement's values, when it refuses a batch", async () => {
    const scheme = await createTenantScheme(database);
    await seedMembers(database, scheme, 4);
    // The same person twice in one scheme, once under each key: the two lookup hashes differ,
    // so only rotation brings them together on the scheme's unique PPS index.
    const [old] = await seedMembers(database, scheme, 1);
    if (!old) throw new Error('member was not seeded');
    await seedMembers(database, scheme, 1, { key: NEW_KEY, ppsNumber: old.ppsNumber });

    const code = await ppsRotateCommand(
      database,
      audit,
      { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR },
      output,
    );

    expect(code).toBe(1);
    const text = printed.join('\n');
    expect(text).toContain('The database refused batch 1');
    expect(text).toContain('members_scheme_pps_key');
    for (const row of await storedMembers(database)) {
      expect(text).not.toContain(row.ppsEncrypted);
      expect(text).not.toContain(row.ppsLookup);
    }
    expect(await rowsUnderNewKey(database)).toBe(1);
    expect(await rotationRecords(database)).toHaveLength(0);
  });

  it('refuses a batch size outside 1 to 10,000', async () => {
    await seedMembers(database, await createTenantScheme(database), 3);
    for (const batchSize of [0, 1.5, Number.NaN, 10_001]) {
      expect(
        await ppsRotateCommand(
          database,
          audit,
          { keys: ROTATION_KEYS, actor: SYSTEM_ACTOR, batchSize },
          output,
        ),
      ).toBe(1);
    }
    expect(printed.join('\n')).toContain('The batch size must be a whole number from 1 to 10000');
    expect(await rowsUnderNewKey(database)).toBe(0);
  });
});

/**
 * The real thing: the CLI in its own process, killed with SIGKILL mid-run (no handler, no
 * cleanup), then run again. PostgreSQL only: PGlite belongs to one process at a time.
 */
describe.skipIf(!onPostgres)('the pps:rotate command as a process', () => {
  interface Finished {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }

  function startCli(): { child: ChildProcess; finished: Promise<Finished> } {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', 'pps:rotate', '--batch-size', '5'],
      {
        env: {
          PATH: process.env.PATH,
          APP_ENV: 'test',
          DATA_DIR: testDataDir(),
          DATABASE_URL: testDatabase.url ?? undefined,
          PPS_ENCRYPTION_KEY: NEW_KEY,
          PPS_ENCRYPTION_KEY_PREVIOUS: OLD_KEY,
          AUDIT_CHAIN_KEY: TEST_SECRETS.AUDIT_CHAIN_KEY,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const finished = once(child, 'exit').then(([code, signal]) => {
      printed.push(stdout, stderr);
      return { code, signal, stdout, stderr } as Finished;
    });
    return { child, finished };
  }

  /** Other sessions of this database still inside a transaction (the killed run's, until the server notices). */
  async function openTransactions(): Promise<number> {
    const [row] = await database.db
      .select({ open: sql<number>`count(*)::int` })
      .from(sql`pg_stat_activity`)
      .where(
        sql`datname = current_database() and pid <> pg_backend_pid()
          and state in ('active', 'idle in transaction', 'idle in transaction (aborted)')`,
      );
    return row?.open ?? 0;
  }

  it('finishes after the first run is killed half way', async () => {
    const total = 2_000;
    const seeded = await seedMembers(database, await createTenantScheme(database), total);

    const first = startCli();
    let exited = false;
    void first.finished.then(() => {
      exited = true;
    });
    while (!exited) {
      // Well into the run, not at its first batch; still far from its end at 5 rows a batch.
      const done = await rowsUnderNewKey(database);
      if (done >= total / 4 && done < total) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(exited, 'the run finished before it could be killed; seed more rows').toBe(false);
    first.child.kill('SIGKILL');
    const killed = await first.finished;
    expect(killed.signal).toBe('SIGKILL');
    // The server rolls back the killed run's open batch once it sees the connection gone.
    while ((await openTransactions()) > 0) await new Promise((resolve) => setTimeout(resolve, 10));

    const partial = await rowsUnderNewKey(database);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(total);
    // Whole batches of 5 only: the batch in flight at the kill left no trace.
    expect(partial % 5).toBe(0);
    expect(await rotationRecords(database)).toHaveLength(1);

    const second = await startCli().finished;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`${total - partial} / ${total - partial} rotated`);
    expect(second.stdout).toContain('PPS_ENCRYPTION_KEY_PREVIOUS can be removed');
    await expectAllRotated(database, seeded);
    const records = await rotationRecords(database);
    expect(records.map((record) => record.newState)).toEqual([
      expect.objectContaining({ rowsToRotate: total }),
      expect.objectContaining({ rowsToRotate: total - partial }),
    ]);
    expect((await verifyTestChains(database)).broken).toEqual([]);
  }, 60_000);

  it('exits 1 naming the member whose PPS number is under an unknown key', async () => {
    const scheme = await createTenantScheme(database);
    await seedMembers(database, scheme, 12);
    const [stray] = await seedMembers(database, scheme, 1, { key: STRAY_KEY });
    if (!stray) throw new Error('member was not seeded');

    const run = await startCli().finished;

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(stray.id);
    expect(run.stderr).toContain('neither PPS_ENCRYPTION_KEY nor PPS_ENCRYPTION_KEY_PREVIOUS');
    const [left] = await withPlatformReadOnly(database, (tx) =>
      tx
        .select({ rows: sql<number>`count(*)::int` })
        .from(members)
        .where(ne(members.ppsKeyId, NEW_KEY_ID)),
    );
    expect(left?.rows).toBe(13);
  }, 60_000);
});
