import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CONNECTION_BOUNDS,
  QueryCancelledError,
  withQuerySignal,
} from '../../src/server/platform/db/connection-bounds.js';
import { type Database, rowsOf } from '../../src/server/platform/db/database.js';
import {
  databaseErrorSummary,
  isDatabaseBoundReached,
} from '../../src/server/platform/db/database-errors.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import { withPlatformRole } from '../../src/server/platform/db/with-actor.js';
import { onPostgres, openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { waitFor } from '../helpers/imports.js';

/**
 * Every statement, lock wait and open transaction on the runtime pool is bounded, and the work of
 * a request whose client went away is cancelled on the server (docs/decisions/0085). These are
 * properties of a PostgreSQL server's connections: PGlite is one connection inside this process,
 * with no other session to wait on, no pool to hold, no cancel request and no pg_stat_activity of
 * other backends, so the suite runs on PostgreSQL only.
 */
describe.runIf(onPostgres)('the runtime pool’s connection bounds (PostgreSQL)', () => {
  let t: TestDatabase;
  let runtimeUrl: string;
  let owner: pg.Client;
  const opened: Database[] = [];

  beforeAll(async () => {
    t = await openTestDatabase();
    runtimeUrl = runtimeDatabaseUrl(
      t.url as string,
      t.url as string,
      process.env.DATABASE_RUNTIME_PASSWORD,
    );
    owner = new pg.Client({ connectionString: t.url as string });
    await owner.connect();
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await owner.end();
    await t.dispose();
  });

  async function pool(bounds: Partial<typeof DEFAULT_CONNECTION_BOUNDS> = {}, size = 2) {
    const database = await openPostgres(runtimeUrl, t.url as string, size, {
      ...DEFAULT_CONNECTION_BOUNDS,
      ...bounds,
    });
    opened.push(database);
    return database;
  }

  const SETTINGS = sql`select current_setting('statement_timeout') as statement,
    current_setting('lock_timeout') as lock,
    current_setting('idle_in_transaction_session_timeout') as idle`;

  /** Runtime backends of this database running a statement whose text contains `fragment`. */
  async function running(fragment: string): Promise<number> {
    const { rows } = await owner.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and state = 'active' and position($1 in query) > 0`,
      [fragment],
    );
    return rows[0]?.n ?? 0;
  }

  it('sets statement_timeout, lock_timeout and idle_in_transaction_session_timeout on the runtime connections, in and out of transactions', async () => {
    const database = await pool();
    const expected = { statement: '30s', lock: '5s', idle: '1min' };
    const inTransaction = await withPlatformRole(database, async (tx) =>
      rowsOf(await tx.execute(SETTINGS)),
    );
    expect(inTransaction).toEqual([expected]);
    expect(rowsOf(await database.db.execute(SETTINGS))).toEqual([expected]);
  });

  it('raises the statement bound to the bulk bound in the upload’s transaction alone', async () => {
    const database = await pool();
    const inBulk = await withPlatformRole(database, async (tx) => {
      await database.allowBulkStatements(tx);
      return rowsOf(await tx.execute(SETTINGS));
    });
    expect(inBulk).toEqual([{ statement: '5min', lock: '5s', idle: '1min' }]);
    const after = await withPlatformRole(database, async (tx) =>
      rowsOf(await tx.execute(SETTINGS)),
    );
    expect(after).toEqual([{ statement: '30s', lock: '5s', idle: '1min' }]);
  });

  it('ends a statement past its bound with a bound-reached error that names no parameter', async () => {
    const database = await pool({ statementTimeoutMs: 1_000, lockTimeoutMs: 500 });
    const failure = await withPlatformRole(database, (tx) =>
      tx.execute(sql`select pg_sleep(${30}), ${'a value that must not be logged'}::text`),
    ).catch((error: unknown) => error);
    expect(isDatabaseBoundReached(failure)).toBe(true);
    expect(databaseErrorSummary(failure)).toEqual({
      sqlState: '57014',
      constraint: null,
      table: null,
    });
    expect(await running('pg_sleep')).toBe(0);
  });

  it('ends a lock wait past lock_timeout instead of holding the connection while it waits', async () => {
    const database = await pool({ lockTimeoutMs: 500 });
    await owner.query('begin');
    try {
      await owner.query('select pg_advisory_xact_lock(42, 42)');
      const failure = await withPlatformRole(database, (tx) =>
        tx.execute(sql`select pg_advisory_xact_lock(42, 42)`),
      ).catch((error: unknown) => error);
      expect(isDatabaseBoundReached(failure)).toBe(true);
      expect(databaseErrorSummary(failure)?.sqlState).toBe('55P03');
    } finally {
      await owner.query('rollback');
    }
  });

  it('cancels the statement in flight when its signal aborts, and lends the connection to no one after', async () => {
    // Bounds far beyond the test: only the cancel can end the statement while the test looks.
    const database = await pool({ statementTimeoutMs: 600_000 }, 1);
    const controller = new AbortController();
    const work = withQuerySignal(controller.signal, () =>
      withPlatformRole(database, (tx) => tx.execute(sql`select pg_sleep(300)`)),
    ).catch((error: unknown) => error);
    await waitFor(async () => ((await running('pg_sleep(')) === 1 ? true : null));
    controller.abort();
    const failure = await work;
    expect(isDatabaseBoundReached(failure)).toBe(true);
    await waitFor(async () => ((await running('pg_sleep(')) === 0 ? true : null));
    // The pool's one connection was closed rather than reused; a new one serves the next work.
    const [answer] = rowsOf<{ one: number }>(
      await withPlatformRole(database, (tx) => tx.execute(sql`select 1 as one`)),
    );
    expect(answer).toEqual({ one: 1 });
    await expect(
      withQuerySignal(controller.signal, () =>
        withPlatformRole(database, (tx) => tx.execute(sql`select 1`)),
      ),
    ).rejects.toBeInstanceOf(QueryCancelledError);
  });
});
