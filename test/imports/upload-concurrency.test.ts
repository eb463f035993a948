import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION_BOUNDS } from '../../src/server/platform/db/connection-bounds.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import {
  onPostgres,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
  writableTableCounts,
} from '../helpers/database.js';
import { createMember, createScheme, type UserRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import {
  csvFile,
  csvLine,
  feedableBody,
  getAs,
  leakedPpsNumbers,
  MEMBER_HEADINGS,
  memberRow,
  membersCsv,
  upload,
  waitFor,
} from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * One tenant must never stop another (docs/decisions/0085, 0086): an upload that would only queue
 * behind another for the same scheme or employer is refused at once, a tenant runs a bounded
 * number of uploads at a time, and nothing of it waits on a lock while holding a pooled
 * connection.
 */

const PAYROLL_HEADINGS = [
  'PPS Number',
  'First Name',
  'Last Name',
  'Date of Birth',
  'Period Start',
  'Period End',
  'Gross Pay',
] as const;

/** One person's four weeks of pay; a different person each call, so no file repeats another. */
function payrollCsv(): string {
  const pps = newPpsNumber();
  const rows = [0, 1, 2, 3].map((week) => {
    const end = new Date(Date.UTC(2026, 0, 4 + 7 * week));
    const start = new Date(end.getTime() - 6 * 86_400_000);
    return {
      'PPS Number': pps,
      'First Name': 'Aoife',
      'Last Name': 'Ní Bhriain',
      'Date of Birth': '12/04/1985',
      'Period Start': start.toISOString().slice(0, 10),
      'Period End': end.toISOString().slice(0, 10),
      'Gross Pay': '800.00',
    };
  });
  return csvFile(PAYROLL_HEADINGS, rows);
}

const membersUrl = (schemeId: string) => `/api/schemes/${schemeId}/members/import`;
const payrollUrl = (employerId: string) => `/api/employers/${employerId}/payroll/import`;

/** The shared scheme fixture with its BrokerAdmin, and more schemes of the same employer. */
async function firm(database: Database, schemeCount = 1) {
  const setup = await schemeFixture(database, { users: { admin: 'BrokerAdmin' } });
  const schemeIds = [setup.schemeId];
  for (let n = 1; n < schemeCount; n += 1) {
    schemeIds.push(
      await createScheme(database, { id: setup.employerId, brokerId: setup.brokerId }),
    );
  }
  return { ...setup, schemeIds };
}

/** An upload whose file has begun to arrive and is held open: its import is running. */
async function heldOpen(t: TestApp, user: UserRow, url: string, head: string) {
  const body = feedableBody();
  const answer = upload(t, user, url, body.stream);
  body.feed(head);
  return {
    answer,
    finish(rest: string) {
      body.feed(rest);
      body.end();
    },
  };
}

async function runningImports(database: Database, schemeId: string): Promise<number> {
  const rows = await ownerOf(database).execute(
    sql`select count(*)::int as n from imports where scheme_id = ${schemeId} and status = 'running'`,
  );
  return (rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

async function runningPayrollUploads(database: Database, employerId: string): Promise<number> {
  const rows = await ownerOf(database).execute(
    sql`select count(*)::int as n from payroll_uploads where employer_id = ${employerId} and status = 'running'`,
  );
  return (rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

describe('concurrent uploads of one tenant', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
    await t.close();
  });

  it('a second import into a scheme while one runs is answered 409 at once and changes nothing', async () => {
    const { schemeId, admin } = await firm(t.database);
    const first = await heldOpen(
      t,
      admin,
      membersUrl(schemeId),
      csvLine(MEMBER_HEADINGS) + csvLine(Object.values(memberRow())),
    );
    await waitFor(async () => ((await runningImports(t.database, schemeId)) === 1 ? true : null));
    const before = await writableTableCounts(t.database);

    const second = await upload(
      t,
      admin,
      membersUrl(schemeId),
      membersCsv([memberRow(), memberRow()]),
    );

    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'An import into this scheme is already running; try again when it has finished',
    });
    expect(await writableTableCounts(t.database)).toEqual(before);

    first.finish(csvLine(Object.values(memberRow())));
    expect((await first.answer).statusCode).toBe(201);
    // The claim ended with the first import: the scheme takes the next one.
    const third = await upload(t, admin, membersUrl(schemeId), membersCsv([memberRow()]));
    expect(third.statusCode).toBe(201);
  });

  it('a second payroll upload for an employer while one runs is answered 409 at once and changes nothing', async () => {
    const { employerId, admin } = await firm(t.database);
    const [head, ...rest] = payrollCsv().split('\n');
    const first = await heldOpen(t, admin, payrollUrl(employerId), `${head}\n${rest[0]}\n`);
    await waitFor(async () =>
      (await runningPayrollUploads(t.database, employerId)) === 1 ? true : null,
    );
    const before = await writableTableCounts(t.database);

    const second = await upload(t, admin, payrollUrl(employerId), payrollCsv());

    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error:
        'A payroll upload for this employer is already running; try again when it has finished',
    });
    expect(await writableTableCounts(t.database)).toEqual(before);
    first.finish(rest.slice(1).join('\n'));
    expect((await first.answer).statusCode).toBe(201);
  });

  it('a tenant running as many uploads as it may is answered 429 for one more; another tenant is not', async () => {
    const perTenant = t.config.uploadsPerTenant;
    const busy = await firm(t.database, perTenant + 1);
    const running = [];
    for (const schemeId of busy.schemeIds.slice(0, perTenant)) {
      running.push(await heldOpen(t, busy.admin, membersUrl(schemeId), csvLine(MEMBER_HEADINGS)));
    }
    for (const schemeId of busy.schemeIds.slice(0, perTenant)) {
      await waitFor(async () => ((await runningImports(t.database, schemeId)) === 1 ? true : null));
    }
    const before = await writableTableCounts(t.database);

    const over = await upload(
      t,
      busy.admin,
      membersUrl(busy.schemeIds[perTenant] as string),
      membersCsv([memberRow()]),
    );
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      error:
        'Too many imports and payroll uploads are running for this firm; try again when one has finished',
    });
    const payroll = await upload(t, busy.admin, payrollUrl(busy.employerId), payrollCsv());
    expect(payroll.statusCode).toBe(429);
    expect(await writableTableCounts(t.database)).toEqual(before);

    const other = await firm(t.database);
    const theirs = await upload(
      t,
      other.admin,
      membersUrl(other.schemeId),
      membersCsv([memberRow()]),
    );
    expect(theirs.statusCode).toBe(201);

    for (const held of running) held.finish(csvLine(Object.values(memberRow())));
    for (const held of running) expect((await held.answer).statusCode).toBe(201);
  });
});

/**
 * The defect as it was found on PostgreSQL: one tenant's large import and a burst of two-row
 * imports into the same scheme, and payroll uploads for one employer, each later one waiting in
 * the advisory lock while it held a pooled connection, until the pool was empty and every other
 * tenant, and the readiness probe, was answered 503. The large import's and the first payroll
 * upload's writes are held where they write (a table lock the owner holds), so that the burst is
 * in flight for as long as the test looks, whatever the machine's speed. PGlite has one
 * connection and no pool to empty, which is why this runs on PostgreSQL only.
 */
describe.runIf(onPostgres)('one tenant’s worst-case burst (PostgreSQL)', () => {
  let owned: TestDatabase;
  let database: Database;
  let t: TestApp;
  const POOL_SIZE = 10;
  const SMALL_IMPORTS = 14;
  const PAYROLL_UPLOADS = 4;

  beforeAll(async () => {
    owned = await openTestDatabase();
    const url = owned.url as string;
    // The service's pool as deployed (DATABASE_POOL_SIZE's default), with lock waits left long
    // enough that the held writes are still waiting while the test looks.
    database = await openPostgres(
      runtimeDatabaseUrl(url, url, process.env.DATABASE_RUNTIME_PASSWORD),
      url,
      POOL_SIZE,
      { ...DEFAULT_CONNECTION_BOUNDS, lockTimeoutMs: 60_000 },
    );
    t = await buildTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
    await owned.dispose();
  });

  /** Backends of the runtime pool waiting for a lock, as the owner sees them. */
  async function waitingOnLocks(owner: pg.Client, kind?: 'advisory'): Promise<number> {
    const { rows } = await owner.query<{ n: number }>(
      `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.datname = current_database() and a.pid <> pg_backend_pid()
          and ($1::text is null or l.locktype = $1)`,
      [kind ?? null],
    );
    return rows[0]?.n ?? 0;
  }

  it('leaves another tenant’s reads and the readiness probe answering 200 while it is in flight', async () => {
    const burst = await firm(database);
    const other = await firm(database);
    await createMember(database, {
      brokerId: other.brokerId,
      employerId: other.employerId,
      schemeId: other.schemeId,
    });
    const owner = new pg.Client({ connectionString: owned.url as string });
    await owner.connect();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await owner.query('rollback');
    };
    try {
      await owner.query('begin');
      await owner.query(
        'lock table members, payroll_employees, payroll_upload_lines in exclusive mode',
      );

      const large = upload(
        t,
        burst.admin,
        membersUrl(burst.schemeId),
        membersCsv(Array.from({ length: 2_000 }, () => memberRow())),
      );
      const firstPayroll = upload(t, burst.admin, payrollUrl(burst.employerId), payrollCsv());
      // Both are writing, held at their first write into a locked table.
      await waitFor(async () => ((await waitingOnLocks(owner)) >= 2 ? true : null), 60_000, 100);

      const smallAnswers: number[] = [];
      const small = Array.from({ length: SMALL_IMPORTS }, () =>
        upload(
          t,
          burst.admin,
          membersUrl(burst.schemeId),
          membersCsv([memberRow(), memberRow()]),
        ).then((answer) => {
          smallAnswers.push(answer.statusCode);
          return answer;
        }),
      );
      const morePayroll = Array.from({ length: PAYROLL_UPLOADS - 1 }, () =>
        upload(t, burst.admin, payrollUrl(burst.employerId), payrollCsv()),
      );
      // Until every small import has been answered, or as many wait on the scheme's lock as the
      // pool has connections left: the burst at its worst.
      await waitFor(
        async () =>
          smallAnswers.length === SMALL_IMPORTS ||
          (await waitingOnLocks(owner, 'advisory')) >= POOL_SIZE - 2
            ? true
            : null,
        60_000,
        100,
      );

      const reads = await Promise.all([
        getAs(t, other.admin, `/api/schemes/${other.schemeId}/members`),
        getAs(t, other.admin, `/api/schemes/${other.schemeId}`),
        getAs(t, other.admin, `/api/employers/${other.employerId}`),
        t.app.inject({
          method: 'GET',
          url: '/api/health/ready',
          remoteAddress: uniqueClientAddress(),
        }),
      ]);
      expect(reads.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      expect(
        ((reads[0] as (typeof reads)[number]).json() as { items: unknown[] }).items,
      ).toHaveLength(1);
      // The burst is still in flight: the held writes have not been let go.
      expect(await waitingOnLocks(owner)).toBeGreaterThanOrEqual(2);

      // What the burst itself was answered: the later uploads refused at once, not queued.
      const smallStatuses = (await Promise.all(small)).map((answer) => answer.statusCode);
      expect(smallStatuses).toEqual(Array(SMALL_IMPORTS).fill(409));
      const payrollStatuses = (await Promise.all(morePayroll)).map((answer) => answer.statusCode);
      expect(payrollStatuses).toEqual(Array(PAYROLL_UPLOADS - 1).fill(409));

      await release();
      expect((await large).statusCode).toBe(201);
      expect((await firstPayroll).statusCode).toBe(201);
    } finally {
      await release().catch(() => undefined);
      await owner.end();
    }
  });
});
