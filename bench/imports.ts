import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DEPLOYED_BCRYPT_COST } from '../src/contracts/passwords.js';
import { passwordHasher } from '../src/server/modules/auth/passwords.rules.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { brokers, employers, schemes, users } from '../src/server/platform/db/schema.js';
import { withActor } from '../src/server/platform/db/with-actor.js';
import { appEnv } from './foundation.js';
import { median, type Report, type Started, startServer, stopServer } from './lib.js';
import { BENCH_ACTOR } from './sessions.js';
import { APP_COMMAND, APP_READY, RUNS } from './settings.js';

/**
 * Bulk import benchmarks, on PostgreSQL, against the real server process: 100,000
 * members through POST /api/schemes/:id/members/import (parsing, validation, AES-GCM sealing,
 * HMAC lookups, duplicate checks, audit) beside a raw COPY of the same members, already shaped as
 * rows, into the members table (the baseline the issue names), and beside a COPY of the CSV into a
 * table without keys; then 1,000,000 contribution rows in one file, with the server's peak RSS.
 */
const MEMBERS = 100_000;
const CONTRIBUTION_ROWS = 1_000_000;
/** Members the contributions file pays for, each over consecutive months. */
const PAYING_MEMBERS = 35_000;
const PASSWORD = 'a benchmark passphrase that is long';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const CHECK_ALPHABET = 'WABCDEFGHIJKLMNOPQRSTUV';
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2];

/** The n-th valid PPS number of this run (docs/decisions/0028-pps-numbers.md), distinct per n. */
function ppsNumber(n: number): string {
  const digits = String(n).padStart(7, '0');
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  return `${digits}${CHECK_ALPHABET[sum % 23]}`;
}

const MEMBER_HEADINGS =
  'PPSN,First Name,Surname,Date of Birth,Email,Address,Date Joined,Salary,Status';

function membersFile(count: number, firstPps: number): Buffer {
  const lines = [MEMBER_HEADINGS];
  for (let n = 0; n < count; n += 1) {
    const month = String((n % 12) + 1).padStart(2, '0');
    lines.push(
      `${ppsNumber(firstPps + n)},Aoife,Murphy-${n},1980-${month}-15,member${n}@example.ie,"${n} Main Street, Galway",2010-${month}-01,"${(30_000 + (n % 50_000)).toLocaleString('en-IE')}.00",active`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Each paying member's months in turn, three amounts a line, until `rows` amounts are written. */
function contributionsFile(rows: number, members: number, firstPps: number): Buffer {
  const lines = ['PPSN,Period,Employee,Employer,AVC'];
  let written = 0;
  for (let month = 0; written < rows; month += 1) {
    const period = `${2000 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
    for (let member = 0; member < members && written < rows; member += 1) {
      const amounts = ['250.00', '500.00', '35.50'].slice(0, Math.min(3, rows - written));
      while (amounts.length < 3) amounts.push('');
      lines.push(`${ppsNumber(firstPps + member)},${period},${amounts.join(',')}`);
      written += amounts.filter((amount) => amount !== '').length;
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

interface Seeded {
  email: string;
  brokerId: string;
  employerId: string;
  memberSchemes: string[];
  contributionScheme: string;
}

async function seed(url: string): Promise<Seeded> {
  const database = await openPostgres(url, url, 2);
  await migrate(database);
  const brokerId = createId();
  const employerId = createId();
  const email = 'importer@bench.example';
  const memberSchemes = Array.from({ length: RUNS }, () => createId());
  const contributionScheme = createId();
  const passwordHash = await passwordHasher(DEPLOYED_BCRYPT_COST)(PASSWORD);
  await withActor(database, BENCH_ACTOR, async (tx) => {
    await tx.insert(brokers).values({ id: brokerId, name: 'Import Brokers' });
    await tx.insert(employers).values({ id: employerId, brokerId, name: 'Import Employer' });
    for (const id of [...memberSchemes, contributionScheme]) {
      await tx
        .insert(schemes)
        .values({ id, brokerId, employerId, name: `Scheme ${id}`, type: 'DC' });
    }
    await tx.insert(users).values({
      id: createId(),
      email,
      name: 'Importer',
      passwordHash,
      role: 'BrokerUser',
      brokerId,
    });
  });
  await database.close();
  return { email, brokerId, employerId, memberSchemes, contributionScheme };
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.251.0.1' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const token = /session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`sign-in failed for the benchmark: ${response.status}`);
  return token;
}

let client = 0;
/** One import through the API; its wall time from the first byte sent to the 201. */
async function timedImport(base: string, token: string, url: string, file: Buffer) {
  client += 1;
  const started = performance.now();
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'text/csv',
      'x-forwarded-for': `10.251.1.${client}`,
    },
    body: file,
  });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 201)
    throw new Error(`import answered ${response.status}: ${body.slice(0, 500)}`);
  return { ms, view: JSON.parse(body) as { rowsWritten: number } };
}

/**
 * A lower bound below any real store: the same CSV, COPY'd as it is into a plain table with no
 * checks, keys or indexes.
 * The table is dropped again: the service refuses to start beside a table without row-level
 * security.
 */
async function rawCopy(url: string, file: Buffer): Promise<number> {
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  try {
    await connection.query(
      'create table bench_raw_members (ppsn text, first_name text, surname text, date_of_birth text, email text, address text, date_joined text, salary text, status text)',
    );
    const started = performance.now();
    await pipeline(
      Readable.from([file]),
      connection.query(
        copyFrom('copy bench_raw_members from stdin with (format csv, header true)'),
      ),
    );
    return performance.now() - started;
  } finally {
    await connection.query('drop table if exists bench_raw_members');
    await connection.end();
  }
}

/**
 * The same members as rows of the members table, in COPY text format, as the import would leave
 * them: ids, the scheme's tenant and employer, a sealed-looking PPS number (base64 of IV, tag and
 * ciphertext, 48 characters) and a 64-hex lookup hash. Only the checks and the crypto are missing.
 */
function memberRowsFile(
  count: number,
  scheme: { id: string; brokerId: string; employerId: string },
) {
  const at = new Date().toISOString();
  const lines: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const month = String((n % 12) + 1).padStart(2, '0');
    lines.push(
      [
        createId(),
        scheme.brokerId,
        scheme.employerId,
        scheme.id,
        'Aoife',
        `Murphy-${n}`,
        `1980-${month}-15`,
        `member${n}@example.ie`,
        `${n} Main Street, Galway`,
        `2010-${month}-01`,
        String(3_000_000 + (n % 5_000_000)),
        'active',
        randomBytes(36).toString('base64'),
        randomBytes(32).toString('hex'),
        'benchmarkkey0000',
        at,
        at,
      ].join('\t'),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const MEMBER_COLUMNS =
  'id, broker_id, employer_id, scheme_id, first_name, last_name, date_of_birth, email, address, date_joined, salary_cents, status, pps_encrypted, pps_lookup, pps_key_id, created_at, updated_at';

/**
 * The baseline the import is measured against: a raw COPY of the same rows into the table the import writes, by the
 * owner, with no parsing, validation, encryption, HMAC or audit, rolled back afterwards. It pays
 * what any way of storing these members pays: the table's indexes, unique keys and foreign keys.
 */
async function rawCopyIntoMembers(url: string, rows: Buffer): Promise<number> {
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  try {
    await connection.query('begin');
    const started = performance.now();
    await pipeline(
      Readable.from([rows]),
      connection.query(copyFrom(`copy members (${MEMBER_COLUMNS}) from stdin`)),
    );
    return performance.now() - started;
  } finally {
    await connection.query('rollback');
    await connection.end();
  }
}

/** The most resident memory the process has had since it started (kernel's high-water mark). */
function peakRssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

async function startApp(url: string, dataDir: string): Promise<Started> {
  return startServer(APP_COMMAND, { ...appEnv(dataDir, 'warn'), DATABASE_URL: url }, APP_READY);
}

export async function runImports(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(ADMIN_URL, `create database ${name}`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-imports-'));
  let app: Started | null = null;
  try {
    const seeded = await seed(url);
    app = await startApp(url, dataDir);
    let base = `http://127.0.0.1:${app.port}`;
    let token = await signIn(base, seeded.email);

    const members = membersFile(MEMBERS, 1);
    const importMs: number[] = [];
    const copyMs: number[] = [];
    const bareCopyMs: number[] = [];
    for (const schemeId of seeded.memberSchemes) {
      const rows = memberRowsFile(MEMBERS, { ...seeded, id: schemeId });
      copyMs.push(await rawCopyIntoMembers(url, rows));
      bareCopyMs.push(await rawCopy(url, members));
      const { ms } = await timedImport(
        base,
        token,
        `/api/schemes/${schemeId}/members/import`,
        members,
      );
      importMs.push(ms);
    }
    const imported = median(importMs);
    const copied = median(copyMs);
    report(
      `Import ${MEMBERS.toLocaleString('en-IE')} members, ${(members.length / 1024 / 1024).toFixed(1)} MiB (ms, median of ${RUNS})`,
      imported.toFixed(0),
      `${copied.toFixed(0)} raw COPY of the same rows into members`,
      (copied / imported).toFixed(2),
      '>= 0.25',
    );
    report(
      '  members per second',
      ((MEMBERS / imported) * 1000).toFixed(0),
      `${((MEMBERS / copied) * 1000).toFixed(0)} raw COPY into members`,
      '',
      '',
    );
    const bareCopied = median(bareCopyMs);
    report(
      '  against COPY of the CSV into a table without keys or indexes (ms)',
      imported.toFixed(0),
      `${bareCopied.toFixed(0)} bare table`,
      (bareCopied / imported).toFixed(2),
      '',
    );

    const paying = membersFile(PAYING_MEMBERS, 5_000_000);
    await timedImport(
      base,
      token,
      `/api/schemes/${seeded.contributionScheme}/members/import`,
      paying,
    );
    // A fresh process, so that its high-water mark is this import's and not the ones before.
    await stopServer(app);
    app = null;
    app = await startApp(url, dataDir);
    base = `http://127.0.0.1:${app.port}`;
    token = await signIn(base, seeded.email);
    const idle = peakRssMegabytes(app.child.pid as number);
    const money = contributionsFile(CONTRIBUTION_ROWS, PAYING_MEMBERS, 5_000_000);
    const { ms, view } = await timedImport(
      base,
      token,
      `/api/schemes/${seeded.contributionScheme}/contributions/import`,
      money,
    );
    if (view.rowsWritten !== CONTRIBUTION_ROWS) {
      throw new Error(`the contributions import wrote ${view.rowsWritten} rows`);
    }
    report(
      `Import ${CONTRIBUTION_ROWS.toLocaleString('en-IE')} contribution rows, ${(money.length / 1024 / 1024).toFixed(1)} MiB (ms)`,
      ms.toFixed(0),
      '',
      '',
      '',
    );
    report(
      '  server peak RSS during it (MB, VmHWM)',
      peakRssMegabytes(app.child.pid as number).toFixed(0),
      `${idle.toFixed(0)} after start-up`,
      '',
      '< 300',
    );
  } finally {
    if (app) await stopServer(app);
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(ADMIN_URL, `drop database if exists ${name} with (force)`);
  }
}
