import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { KEYED_CHAIN_MIGRATION } from '../../src/server/platform/audit/audit-log.js';
import { rowsOf } from '../../src/server/platform/db/database.js';
import {
  isSchemaCurrent,
  MIGRATIONS_FOLDER,
  MigrationError,
  migrate,
} from '../../src/server/platform/db/migrator.js';
import { testDataDir } from '../helpers/config.js';
import { onPostgres, openTestDatabase, ownerOf } from '../helpers/database.js';

const migrationCount = () =>
  (
    JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;

async function tableExists(
  database: Awaited<ReturnType<typeof openTestDatabase>>['database'],
  name: string,
) {
  const rows = rowsOf(
    await database.db.execute(
      sql`select 1 from pg_tables where schemaname = 'public' and tablename = ${name}`,
    ),
  );
  return rows.length === 1;
}

describe('migrations', () => {
  it('apply once, then find nothing to do', async () => {
    const t = await openTestDatabase({ migrated: false });
    try {
      const first = await migrate(t.database);
      expect(first.applied).toBe(migrationCount());
      // The run that brings in the keyed audit chain is the one that seals its cut-over.
      expect(first.appliedTags).toContain(KEYED_CHAIN_MIGRATION);
      expect(await migrate(t.database)).toEqual({ applied: 0, appliedTags: [] });
      expect(await isSchemaCurrent(t.database)).toBe(true);
    } finally {
      await t.dispose();
    }
  });

  it('change nothing when one of them fails: all pending migrations share one transaction', async () => {
    const folder = testDataDir();
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
    journal.entries.push({
      idx: journal.entries.length,
      version: '7',
      when: Date.now(),
      tag: '9999_broken',
      breakpoints: true,
    });
    writeFileSync(journalFile, JSON.stringify(journal));
    writeFileSync(
      path.join(folder, '9999_broken.sql'),
      'create table fine_so_far (id int);\n--> statement-breakpoint\nselect * from no_such_table;',
    );
    const t = await openTestDatabase({ migrated: false });
    try {
      await expect(migrate(t.database, folder)).rejects.toThrow();
      expect(await tableExists(t.database, 'brokers')).toBe(false);
      expect(await tableExists(t.database, 'fine_so_far')).toBe(false);
    } finally {
      await t.dispose();
    }
  });

  it('refuse a database migrated by a build this one does not know (forward only)', async () => {
    const t = await openTestDatabase();
    try {
      await ownerOf(t.database).execute(
        sql`insert into schema_migrations (hash, created_at) values ('from-the-future', 99999999999999)`,
      );
      await expect(migrate(t.database)).rejects.toBeInstanceOf(MigrationError);
      expect(await isSchemaCurrent(t.database)).toBe(true);
    } finally {
      await t.dispose();
    }
  });

  it.runIf(onPostgres)(
    'let several processes start at once: one migrates, the others wait and find it done',
    async () => {
      const t = await openTestDatabase({ migrated: false });
      try {
        const results = await Promise.all([
          migrate(t.database),
          migrate(t.database),
          migrate(t.database),
        ]);
        expect(results.map((result) => result.applied).sort()).toEqual([0, 0, migrationCount()]);
      } finally {
        await t.dispose();
      }
    },
  );
});
