import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import { type Database, rowsOf, type Transaction } from './database.js';

/** The same relative path from src/server/db and from dist/server/db. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../../migrations', import.meta.url));

/** Any constant works; it only has to be the same for every process migrating this database. */
const MIGRATION_LOCK_KEY = 7_201_190_001;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

interface AppliedMigration {
  hash: string;
  created_at: string;
}

export interface NamedMigration extends MigrationMeta {
  /** The file's name without `.sql`, e.g. `0011_keyed_audit_chain`. */
  tag: string;
}

/** The migrations in the journal's order, each with its journal tag. */
export function loadMigrations(folder: string): NamedMigration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return readMigrationFiles({ migrationsFolder: folder }).map((migration, index) => ({
    ...migration,
    tag: journal.entries[index]?.tag ?? '',
  }));
}

async function appliedMigrations(tx: Transaction): Promise<AppliedMigration[]> {
  await tx.execute(sql`
    create table if not exists schema_migrations (
      hash text primary key,
      created_at bigint not null,
      applied_at timestamptz not null default now()
    )`);
  return rowsOf<AppliedMigration>(
    await tx.execute(sql`select hash, created_at::text from schema_migrations order by created_at`),
  );
}

/**
 * Applies pending migrations, forward only, all in one transaction: either the schema reaches
 * this build's version or nothing changes. Several processes may start at once; the advisory
 * lock lets one migrate while the others wait and then find nothing to do.
 */
export async function migrate(
  database: Database,
  folder: string = MIGRATIONS_FOLDER,
): Promise<{ applied: number; appliedTags: string[] }> {
  const migrations = loadMigrations(folder);
  return database.withMigrationConnection(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    const applied = await appliedMigrations(tx);
    const known = new Set(migrations.map((migration) => migration.hash));
    const unknown = applied.filter((row) => !known.has(row.hash));
    if (unknown.length > 0) {
      throw new MigrationError(
        `the database has ${unknown.length} migration(s) this build does not know: it was migrated by a newer or different version`,
      );
    }
    const done = new Set(applied.map((row) => row.hash));
    const pending = migrations.filter((migration) => !done.has(migration.hash));
    for (const migration of pending) {
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into schema_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
    }
    return { applied: pending.length, appliedTags: pending.map((migration) => migration.tag) };
  });
}

/**
 * This build's migrations, read from disk and hashed once a process: they do not change while it
 * runs, and reading and hashing every file on each probe blocked the thread that answers requests
 * (docs/decisions/0141-pension-benefit-statements.md, "Speed").
 */
let buildMigrationHashes: string[] | undefined;

/** True when every migration of this build is applied (readiness). */
export async function isSchemaCurrent(database: Database): Promise<boolean> {
  buildMigrationHashes ??= loadMigrations(MIGRATIONS_FOLDER).map((migration) => migration.hash);
  const expected = buildMigrationHashes;
  const result = await database.db.execute(
    sql`select hash from schema_migrations where hash in ${expected}`,
  );
  return rowsOf(result).length === expected.length;
}
