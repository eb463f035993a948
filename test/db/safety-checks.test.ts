import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertDatabaseSafety,
  UnsafeDatabaseError,
} from '../../src/server/platform/db/safety-checks.js';
import { onPostgres, openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';

let t: TestDatabase;
beforeEach(async () => {
  t = await openTestDatabase();
});
afterEach(() => t.dispose());

async function problemsOf(): Promise<string[]> {
  try {
    await assertDatabaseSafety(t.database);
  } catch (error) {
    if (error instanceof UnsafeDatabaseError) return error.problems;
    throw error;
  }
  return [];
}

describe('start-up safety checks', () => {
  it('pass on a migrated database', async () => {
    expect(await problemsOf()).toEqual([]);
  });

  it('refuse a table that does not force row-level security', async () => {
    await ownerOf(t.database).execute(sql`create table stray_notes (id text primary key)`);
    expect(await problemsOf()).toEqual(['table stray_notes does not force row-level security']);
    await ownerOf(t.database).execute(sql`alter table stray_notes enable row level security`);
    expect(await problemsOf()).toEqual(['table stray_notes does not force row-level security']);
    await ownerOf(t.database).execute(sql`alter table stray_notes force row level security`);
    expect(await problemsOf()).toEqual([]);
  });

  it('refuse a table owned by a runtime role, which would skip unforced policies', async () => {
    await ownerOf(t.database).execute(sql`create table app_owned (id text primary key)`);
    await ownerOf(t.database).execute(sql`alter table app_owned enable row level security`);
    await ownerOf(t.database).execute(sql`alter table app_owned force row level security`);
    await ownerOf(t.database).execute(sql`alter table app_owned owner to pension_app`);
    expect(await problemsOf()).toEqual(['runtime role pension_app owns table app_owned']);
  });

  // Roles belong to the whole server: changing one on PostgreSQL would disturb every other test
  // database there, so this runs on PGlite, whose cluster is this test's own.
  it.skipIf(onPostgres)('refuse a runtime role that is a superuser or bypasses RLS', async () => {
    await ownerOf(t.database).execute(sql`alter role pension_app bypassrls`);
    await ownerOf(t.database).execute(sql`alter role pension_auth superuser`);
    expect(await problemsOf()).toEqual([
      'runtime role pension_app has BYPASSRLS',
      'runtime role pension_auth is a superuser',
    ]);
  });
});
