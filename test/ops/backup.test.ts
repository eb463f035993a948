import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditChainKey } from '../../src/server/platform/audit/audit-chain.js';
import { chainsAreSound, verifyAuditChains } from '../../src/server/platform/audit/audit-log.js';
import { auditLog, members, payrollEmployees } from '../../src/server/platform/db/schema.js';
import {
  type BackupManifest,
  type BackupTarget,
  DATABASE_FILE,
  findPostgresTool,
  restoreBackup,
  takeBackup,
  verifyBackup,
} from '../../src/server/platform/ops/backup.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS, testDataDir } from '../helpers/config.js';
import {
  onPostgres,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
  writableTableCounts,
} from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { csvFile, upload } from '../helpers/imports.js';
import { newPpsNumber, testPpsKeyring } from '../helpers/pps.js';

/**
 * Backup and restore (docs/backups.md): a backup taken after an erasure restores into a
 * fresh database and a fresh DATA_DIR with the erased person still absent, the audit chains sound
 * and every document's bytes equal; a restore refuses a database that is not empty, or a backup
 * whose files do not match their hashes, and changes nothing.
 */

const skipReason = onPostgres
  ? null
  : 'backup test skipped: backup and restore are for a PostgreSQL server (DATABASE_URL); the embedded PGlite database is for development';
if (skipReason) console.warn(skipReason);

const silent = { out: () => undefined };
const chainKey = auditChainKey(TEST_SECRETS.AUDIT_CHAIN_KEY);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The payroll columns an upload gives; one week of pay is enough to name a person. */
const PAYROLL_HEADINGS = [
  'PPS Number',
  'First Name',
  'Last Name',
  'Date of Birth',
  'Period Start',
  'Period End',
  'Gross Pay',
] as const;
const payrollOf = (pps: string, lastName: string) =>
  csvFile(PAYROLL_HEADINGS, [
    {
      'PPS Number': pps,
      'First Name': 'Ciarán',
      'Last Name': lastName,
      'Date of Birth': '03/07/1990',
      'Period Start': '2026-03-23',
      'Period End': '2026-03-29',
      'Gross Pay': '800.00',
    },
  ]);

/** The restored database's whole data as pg_dump prints it: "absent" means absent from every table. */
async function dataText(url: string): Promise<string> {
  const pgDump = await findPostgresTool('pg_dump');
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const result = spawnSync(pgDump, ['--data-only', `--dbname=${parsed}`], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr.toString()}`);
  return result.stdout.toString('utf8');
}

/** The command as an operator runs it (`npm run cli -- …`), in a process of its own. */
function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      APP_ENV: 'test',
      LOG_LEVEL: 'error',
      ...TEST_SECRETS,
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('backup on the embedded database', () => {
  it('is refused with the reason and what to do, and creates no database', () => {
    const dataDir = testDataDir();
    const folder = path.join(dataDir, 'backup');
    const result = cli(['backup', folder], { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/not supported on the embedded database \(PGlite/);
    expect(result.stderr).toMatch(/PostgreSQL server \(DATABASE_URL\)/);
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    expect(existsSync(folder)).toBe(false);
  });
});

describe('a backup whose manifest names a path that climbs out of its folder', () => {
  it('is refused before anything is restored, however the path is written', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'pension-backup-'));
    try {
      const bytes = Buffer.from('not a document');
      writeFileSync(path.join(folder, 'escape'), bytes);
      // Each resolves inside the backup folder, yet a restore copies a documents/ path to the same
      // place under DATA_DIR/documents: one `..` there writes beside the document store.
      for (const named of ['documents/../escape', 'documents/./../escape', './escape']) {
        const manifest: BackupManifest = {
          format: 'pension-backup/1',
          takenAt: new Date().toISOString(),
          migrations: { applied: 0, latest: null },
          files: [{ path: named, sha256: sha256(bytes), size: bytes.length }],
          documentStore: 'local',
        };
        writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
        await expect(verifyBackup(folder), named).rejects.toThrow(
          /manifest\.json names a file outside the backup/,
        );
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

async function relationCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe.skipIf(skipReason)('backup and restore', { timeout: 120_000 }, () => {
  let source: TestDatabase;
  let t: TestApp;
  let admin: UserRow;
  let place: { brokerId: string; employerId: string; schemeId: string };
  let deletedMemberId: string;
  /** Paid out long ago, in the backup, and erased after it. */
  let erasedLaterMemberId: string;
  const erasedLaterName = `Erasedlater${Date.now().toString(36)}`;
  const erasedPps = newPpsNumber();
  const erasedLastName = `Erasedperson${Date.now().toString(36)}`;
  let document: { id: string; sha256: string };
  let backupFolder: string;
  let manifest: BackupManifest;
  const opened: TestDatabase[] = [];
  /** Backup folders and restored DATA_DIRs of this file, removed after it. */
  const folders: string[] = [];
  const scratch = (prefix: string) => {
    const folder = mkdtempSync(path.join(tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };

  const targetOf = (database: TestDatabase, dataDir: string): BackupTarget => ({
    ownerUrl: database.url as string,
    documents: { kind: 'local', root: path.join(dataDir, 'documents') },
  });

  beforeAll(async () => {
    source = await openTestDatabase();
    t = await buildTestApp({ database: source.database, counters: uncountedStore() });
    const brokerId = await createBroker(t.database);
    const employerId = await createEmployer(t.database, brokerId);
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    place = { brokerId, employerId, schemeId };
    admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });

    const form = documentForm('Trust deed.pdf', SAMPLES.pdf);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(admin)}` },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    document = uploaded.json();

    const member = await createMember(t.database, place);
    deletedMemberId = member.id;
    expect((await t.requestAs(admin, 'DELETE', `/api/members/${member.id}`)).statusCode).toBe(204);

    // The erasure (docs/decisions/0068-auto-enrolment-readiness.md, "Erasure"): deleting the upload deletes
    // the employee it alone named, PPS number and all.
    const payroll = await upload(
      t,
      admin,
      `/api/employers/${employerId}/payroll/import`,
      payrollOf(erasedPps, erasedLastName),
    );
    expect(payroll.statusCode, payroll.body).toBe(201);
    const before = await dataText(source.url as string);
    expect(before).toContain(erasedLastName);
    const erased = await t.requestAs(
      admin,
      'DELETE',
      `/api/employers/${employerId}/payroll/imports/${payroll.json().id}`,
    );
    expect(erased.statusCode).toBe(204);

    // Refunded and paid in 2015: the retention schedule keeps none of the record in 2026
    // (docs/decisions/0149-retention-and-erasure.md).
    erasedLaterMemberId = (await createMember(t.database, place)).id;
    await ownerOf(t.database).execute(
      sql`update members set last_name = ${erasedLaterName}, status = 'refunded', status_on = '2015-06-30' where id = ${erasedLaterMemberId}`,
    );

    backupFolder = path.join(scratch('pension-backup-'), 'backup');
    manifest = await takeBackup(
      targetOf(source, path.dirname(t.config.documents.storageRoot)),
      backupFolder,
      silent,
    );
  });

  afterAll(async () => {
    await t?.close();
    await source?.dispose();
    for (const database of opened) await database.dispose();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  async function emptyDatabase(): Promise<TestDatabase> {
    const database = await openTestDatabase({ migrated: false });
    opened.push(database);
    return database;
  }

  it('names every file in its manifest with a SHA-256 that matches, and the migration level', () => {
    const paths = manifest.files.map((file) => file.path);
    expect(paths).toContain(DATABASE_FILE);
    // Stored by ids alone (docs/decisions/0092-object-keys-by-id.md).
    const documentFile = manifest.files.find(
      (file) => file.path === `documents/${place.brokerId}/${place.schemeId}/${document.id}`,
    );
    expect(documentFile?.sha256).toBe(document.sha256);
    for (const file of manifest.files) {
      expect(sha256(readFileSync(path.join(backupFolder, file.path)))).toBe(file.sha256);
    }
    expect(manifest.migrations.applied).toBeGreaterThan(0);
    expect(manifest.migrations.latest).toMatch(/^\d{4}_/);
  });

  it('restores into a fresh database and DATA_DIR with the erased person absent, the member still deleted, the chains sound and the document equal', async () => {
    const target = await emptyDatabase();
    const dataDir = scratch('pension-restore-');
    await restoreBackup(targetOf(target, dataDir), backupFolder, silent);

    const restored = await dataText(target.url as string);
    expect(restored).not.toContain(erasedLastName);
    expect(restored).not.toContain(testPpsKeyring.lookup(place.brokerId, erasedPps));
    const employees = await ownerOf(target.database)
      .select({ n: count() })
      .from(payrollEmployees)
      .where(eq(payrollEmployees.employerId, place.employerId));
    expect(employees[0]?.n).toBe(0);

    const report = await verifyAuditChains(target.database, { keys: [chainKey] });
    expect(chainsAreSound(report)).toBe(true);
    const sourceRecords = await ownerOf(source.database).select({ n: count() }).from(auditLog);
    expect(report.records).toBe(sourceRecords[0]?.n);

    const [member] = await ownerOf(target.database)
      .select({ deletedAt: members.deletedAt })
      .from(members)
      .where(eq(members.id, deletedMemberId));
    expect(member?.deletedAt).not.toBeNull();

    // The restored service itself: the deleted member stays hidden, the document's bytes equal.
    const restoredApp = await buildTestApp({
      database: target.database,
      counters: uncountedStore(),
      env: { DATA_DIR: dataDir },
    });
    try {
      expect(
        (await restoredApp.requestAs(admin, 'GET', `/api/members/${deletedMemberId}`)).statusCode,
      ).toBe(404);
      const link = await restoredApp.requestAs(admin, 'GET', `/api/documents/${document.id}/url`);
      expect(link.statusCode, link.body).toBe(200);
      const signed = new URL(link.json().url as string);
      const file = await restoredApp.app.inject({
        method: 'GET',
        url: `${signed.pathname}${signed.search}`,
        remoteAddress: uniqueClientAddress(),
      });
      expect(file.statusCode).toBe(200);
      expect(sha256(file.rawPayload)).toBe(document.sha256);
      expect(file.rawPayload.equals(SAMPLES.pdf)).toBe(true);
    } finally {
      await restoredApp.close();
    }
  });

  it('restores through the command line and reports the audit chains sound', async () => {
    const target = await emptyDatabase();
    const result = cli(['restore', backupFolder], {
      DATA_DIR: scratch('pension-restore-'),
      DATABASE_URL: target.url as string,
      ...(process.env.DATABASE_RUNTIME_PASSWORD
        ? { DATABASE_RUNTIME_PASSWORD: process.env.DATABASE_RUNTIME_PASSWORD }
        : {}),
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/every file matches its SHA-256/);
    expect(result.stdout).toMatch(/Documents restored: 1 file\(s\)/);
    expect(result.stdout).toMatch(
      /Audit chains: \d+ record\(s\) in \d+ chain\(s\), checkpoint \w+: sound\./,
    );
  });

  it('refuses a database that is not empty and changes nothing in it', async () => {
    const before = await writableTableCounts(source.database);
    const dataDir = scratch('pension-restore-');
    await expect(restoreBackup(targetOf(source, dataDir), backupFolder, silent)).rejects.toThrow(
      /target database is not empty/,
    );
    expect(await writableTableCounts(source.database)).toEqual(before);
  });

  it('refuses a backup whose file does not match its SHA-256 and leaves the database empty', async () => {
    const copy = path.join(scratch('pension-backup-'), 'tampered');
    const copied = await takeBackup(
      targetOf(source, path.dirname(t.config.documents.storageRoot)),
      copy,
      silent,
    );
    const documentFile = copied.files.find((file) => file.path.startsWith('documents/'));
    if (!documentFile) throw new Error('the backup holds no document');
    writeFileSync(path.join(copy, documentFile.path), Buffer.from('%PDF-1.4 altered'));
    const target = await emptyDatabase();
    await expect(
      restoreBackup(targetOf(target, scratch('pension-restore-')), copy, silent),
    ).rejects.toThrow(/SHA-256 differs/);
    expect(await relationCount(target.url as string)).toBe(0);
  });

  // Last: the erasure adds records to the source's chain, which the restores above compare with.
  it('applies again, before anyone is served, an erasure made after the backup, and the chains stay sound', async () => {
    expect(await dataText(source.url as string)).toContain(erasedLaterName);
    const request = await t.requestAs(admin, 'POST', '/api/data-requests', {
      memberId: erasedLaterMemberId,
      kind: 'erasure',
      receivedOn: new Date().toISOString().slice(0, 10),
    });
    expect(request.statusCode, request.body).toBe(201);
    const erased = await t.requestAs(
      admin,
      'POST',
      `/api/data-requests/${request.json().id}/erase`,
    );
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().erased).toBe('member');

    const target = await emptyDatabase();
    const result = cli(['restore', backupFolder], {
      DATA_DIR: scratch('pension-restore-'),
      DATABASE_URL: target.url as string,
      ERASURE_LEDGER_FILE: t.config.erasureLedgerFile,
      ...(process.env.DATABASE_RUNTIME_PASSWORD
        ? { DATABASE_RUNTIME_PASSWORD: process.env.DATABASE_RUNTIME_PASSWORD }
        : {}),
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Erasure ledger: 1 entry, 1 applied again\./);
    expect(result.stdout).toMatch(/Audit chains: .*: sound\./);
    const restored = await dataText(target.url as string);
    expect(restored).not.toContain(erasedLaterName);
    const report = await verifyAuditChains(target.database, { keys: [chainKey] });
    expect(chainsAreSound(report)).toBe(true);
  });
});
