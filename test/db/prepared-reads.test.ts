import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres, openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';
import { createEmployer, createScheme, createUser } from '../helpers/factories.js';

/**
 * The by-id finders are prepared by name once per pooled connection (src/server/platform/db/prepared.ts,
 * docs/decisions/0061-prepared-by-id-finders.md). A statement prepared before a column under it
 * changed type fails on every later use on that connection ("cached plan must not change result
 * type"), as a migration run by a newer instance beside this one can cause: the connection must
 * be closed, not handed to the next request.
 */
describe.runIf(onPostgres)('a prepared read whose table changed under it', () => {
  let t: TestDatabase;
  let database: Database;
  let app: TestApp;

  beforeAll(async () => {
    t = await openTestDatabase();
    const owner = t.url as string;
    database = await openPostgres(
      runtimeDatabaseUrl(owner, owner, process.env.DATABASE_RUNTIME_PASSWORD),
      owner,
      1,
    );
    app = await buildTestApp({ database });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await t.dispose();
  });

  it('fails the one request that meets it, and the connection is replaced for the next', async () => {
    const admin = await createUser(t.database, { role: 'BrokerAdmin' });
    const brokerId = admin.brokerId as string;
    const employerId = await createEmployer(t.database, brokerId);
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const headers = { authorization: `Bearer ${await app.tokenFor(admin)}` };
    const read = () => app.app.inject({ method: 'GET', url: `/api/schemes/${schemeId}`, headers });

    expect((await read()).statusCode).toBe(200);
    await ownerOf(t.database).execute(sql`alter table schemes alter column name type varchar(300)`);
    // The one connection's statement was planned for the old type; PostgreSQL refuses it once.
    const met = await read();
    expect(met.statusCode).toBe(500);
    expect(met.json()).toEqual({ error: 'Internal server error' });
    const next = await read();
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ id: schemeId, brokerId });
  });
});
