import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION_BOUNDS } from '../../src/server/platform/db/connection-bounds.js';
import { type Database, rowsOf } from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres, openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';
import { createEmployer } from '../helpers/factories.js';
import { waitFor } from '../helpers/imports.js';
import { rawGet, rawRequest } from '../helpers/raw-http.js';

/**
 * A request whose client has gone has its statement cancelled on the server
 * (docs/decisions/0085-bounded-database-connections.md), seen from outside: a real client over a
 * loopback socket, a statement held waiting on a table lock, and the backend watched in
 * pg_stat_activity. PostgreSQL only: PGlite is one connection inside this process, with no lock
 * another session could hold, no cancel request and no other backend to watch.
 */
describe.runIf(onPostgres)('a request whose client goes away (PostgreSQL)', () => {
  let shared: TestDatabase;
  let database: Database;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    shared = await openTestDatabase();
    const url = shared.url as string;
    // Lock and statement bounds far beyond the test, so that only the cancel can end the wait
    // while the test looks; one connection, so the next request is served only if the
    // cancelled one was given back.
    database = await openPostgres(
      runtimeDatabaseUrl(url, url, process.env.DATABASE_RUNTIME_PASSWORD),
      url,
      1,
      { ...DEFAULT_CONNECTION_BOUNDS, statementTimeoutMs: 600_000, lockTimeoutMs: 300_000 },
    );
    t = await buildTestApp({ database });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
    await database.close();
    await shared.dispose();
  });

  /**
   * The pid of the backend waiting for a lock on `schemes`. Read outside the transaction that
   * holds the lock, one statement at a time: within one transaction PostgreSQL answers
   * pg_stat_activity's state and query from the snapshot it took at the first read (only the
   * wait event is read live), so a backend already gone would still be listed there as `active`.
   */
  async function schemesLockWaiter(): Promise<number | null> {
    const [row] = rowsOf<{ pid: number }>(
      await ownerOf(shared.database).execute(sql`select pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and wait_event_type = 'Lock' and position('"schemes"' in query) > 0`),
    );
    return row?.pid ?? null;
  }

  async function backendExists(pid: number): Promise<boolean> {
    const [row] = rowsOf<{ n: number }>(
      await ownerOf(shared.database).execute(
        sql`select count(*)::int as n from pg_stat_activity where pid = ${pid}`,
      ),
    );
    return (row?.n ?? 0) > 0;
  }

  /** A POST creating a scheme, written whole: its body is read before the handler runs. */
  function createSchemeRequest(token: string, employerId: string, name: string): string {
    const body = JSON.stringify({ employerId, name, type: 'DC' });
    return [
      'POST /api/schemes HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n');
  }

  it('cancels the statement of a request whose client closed its socket after sending the whole body, while the lock it waits for is still held, and the pool serves the next request', async () => {
    const { user, token } = await t.signedInUser();
    const employerId = await createEmployer(t.database, user.brokerId as string);
    await ownerOf(shared.database).transaction(async (tx) => {
      await tx.execute(sql`lock table schemes in access exclusive mode`);
      const client = connect(port, '127.0.0.1');
      client.on('error', () => undefined);
      client.write(createSchemeRequest(token, employerId, 'Abandoned'));
      const waiter = await waitFor(schemesLockWaiter, 10_000).catch(() => null);
      expect(waiter, 'the request’s INSERT waiting for the lock').not.toBeNull();
      client.destroy();
      // Bounded well below the lock and statement bounds: only the cancel ends the wait. The
      // cancelled connection is closed rather than reused, so its backend leaves altogether.
      const gone = await waitFor(
        async () => ((await backendExists(waiter as number)) ? null : true),
        5_000,
      ).catch(() => false);
      expect(gone, 'the waiting backend gone while the lock is still held').toBe(true);
    });
    const next = await rawRequest(port, createSchemeRequest(token, employerId, 'Served'));
    expect(next.statusCode).toBe(201);
    const list = await rawGet(port, '/api/schemes', `Authorization: Bearer ${token}\r\n`);
    expect(list.statusCode).toBe(200);
    // The cancelled request's insert was rolled back with its transaction.
    expect(JSON.parse(list.body).items.map((scheme: { name: string }) => scheme.name)).toEqual([
      'Served',
    ]);
  });
});
