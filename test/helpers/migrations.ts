import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../src/server/platform/db/migrator.js';
import { testDataDir } from './config.js';

/**
 * A copy of the migrations folder holding those before `tag` only, so an upgrade test can build a
 * database as it stood before a migration, fill it, then apply the rest from the real folder.
 */
export function migrationsBefore(tag: string): string {
  const folder = testDataDir();
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  for (const later of journal.entries.slice(at)) rmSync(path.join(folder, `${later.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}
