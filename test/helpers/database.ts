import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import {
  type Database,
  type Db,
  openPglite,
  rowsOf,
} from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import * as schema from '../../src/server/platform/db/schema.js';

/**
 * Which engine the tests run on: PGlite by default; the PostgreSQL server at DATABASE_URL when
 * it is set. On the server every test file gets a database of its own, dropped afterwards.
 */
export const serverUrl = process.env.DATABASE_URL || null;
export const onPostgres = serverUrl !== null;

export interface TestDatabase {
  /** Opened as the service opens it: the pool as the runtime login, the migrator as the owner. */
  database: Database;
  /** Connection URL of this file's own database, as its owner (PostgreSQL only). */
  url: string | null;
  dispose(): Promise<void>;
}

/**
 * The owner of each test database, for what a test sets up or inspects around the service:
 * counting every tenant's rows, planting a trigger, tampering with a record. The service's own
 * `database.db` logs in as the runtime role, which reads no table.
 */
const owners = new WeakMap<Database, Db>();

/** The owner's query builder for a database opened by openTestDatabase. */
export function ownerOf(database: Database): Db {
  const owner = owners.get(database);
  if (!owner) throw new Error('ownerOf needs a database opened by openTestDatabase');
  return owner;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl ?? undefined });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh database; migrated unless `migrated: false`. */
export async function openTestDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  if (serverUrl === null) {
    const templates = inject('pgliteTemplates');
    if (!templates)
      throw new Error('PGlite templates missing: run the tests through vitest.config.ts');
    const dump = readFileSync(migrated ? templates.migrated : templates.fresh);
    const database = await openPglite(null, new Blob([dump]));
    // The embedded engine has one login, its superuser (docs/decisions/0040-runtime-database-login.md).
    owners.set(database, database.db);
    return { database, url: null, dispose: () => database.close() };
  }
  const name = `pension_test_${randomBytes(6).toString('hex')}`;
  if (migrated) {
    // A copy of the run's migrated database (test/global-setup.ts). The migration's grant of
    // CONNECT names the database it ran in, so the copy is granted it as the migration would.
    const template = inject('postgresTemplate');
    if (!template)
      throw new Error('PostgreSQL template missing: run the tests through vitest.config.ts');
    await adminQuery(`create database ${name} template ${template}`);
    await adminQuery(`grant connect on database ${name} to pension_runtime`);
  } else {
    await adminQuery(`create database ${name}`);
  }
  const url = withDatabaseName(serverUrl, name);
  const runtimeUrl = runtimeDatabaseUrl(url, url, process.env.DATABASE_RUNTIME_PASSWORD);
  const database = await openPostgres(runtimeUrl, url, 4);
  const ownerPool = new pg.Pool({ connectionString: url, max: 2 });
  ownerPool.on('error', () => undefined);
  owners.set(database, drizzle({ client: ownerPool, schema }) as unknown as Db);
  return {
    database,
    url,
    async dispose() {
      await database.close();
      await ownerPool.end();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** The database's own message for a failed query (drizzle wraps it as the cause). */
export async function databaseErrorOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? (error as Error).message;
  }
  throw new Error('expected the query to fail');
}

/**
 * The pay lines held by the selected rows of `payroll_upload_lines`: each row is one upload's
 * lines, counted as it stored them.
 */
export const payrollLinesIn = sql<number>`coalesce(sum(${schema.payrollUploadLines.lineCount}), 0) :: integer`;

/** The service's tables, by name, as the catalogue lists them: read once per database. */
const tablesOf = new WeakMap<Database, Promise<string[]>>();

function serviceTables(database: Database): Promise<string[]> {
  let tables = tablesOf.get(database);
  if (!tables) {
    tables = ownerOf(database)
      .execute(sql`
        select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name <> 'schema_migrations'
        order by table_name`)
      .then((result) => rowsOf<{ name: string }>(result).map((row) => row.name));
    tablesOf.set(database, tables);
  }
  return tables;
}

/**
 * The row count of every table of the service, read from the database's own catalogue (every
 * base table of the `public` schema but the migrations' journal), by table name, in one query:
 * "nothing changed" is equality, and a table added later is counted without editing this.
 */
export async function writableTableCounts(database: Database): Promise<Record<string, number>> {
  const tables = await serviceTables(database);
  if (tables.length === 0) throw new Error('the catalogue lists no tables: wrong schema?');
  const counts = sql.join(
    tables.map(
      (name) =>
        sql`(select count(*)::integer from ${sql.identifier(name)}) as ${sql.identifier(name)}`,
    ),
    sql`, `,
  );
  const [row] = rowsOf<Record<string, number>>(
    await ownerOf(database).execute(sql`select ${counts}`),
  );
  if (!row) throw new Error('the table counts answered no row');
  return Object.fromEntries(tables.map((name) => [name, Number(row[name])]));
}
