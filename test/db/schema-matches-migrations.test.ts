import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../src/server/platform/db/migrator.js';
import * as schema from '../../src/server/platform/db/schema.js';

/**
 * The tables the code declares, one file a module (docs/decisions/0119-schema-split-by-module.md),
 * are exactly those the migrations build: drizzle-kit, comparing them with the last migration's
 * snapshot, finds nothing to generate. A table changed without its migration fails here.
 */

function latestSnapshot() {
  const journal = JSON.parse(
    readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
  );
  const last = journal.entries.at(-1);
  const file = `${String(last.idx).padStart(4, '0')}_snapshot.json`;
  return JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', file), 'utf8'));
}

describe('the schema in code and the migrations', () => {
  it('agree: generating a migration from the schema finds nothing to do', async () => {
    const previous = latestSnapshot();
    const current = generateDrizzleJson(schema, previous.id);
    expect(Object.keys(current.tables)).toHaveLength(Object.keys(previous.tables).length);
    expect(await generateMigration(previous, current)).toEqual([]);
  });

  it('would see a change: a table left out is a statement to generate', async () => {
    const previous = latestSnapshot();
    const { ragChunks: _left, ...fewer } = schema;
    const statements = await generateMigration(previous, generateDrizzleJson(fewer, previous.id));
    expect(statements.join('\n')).toMatch(/DROP TABLE "rag_chunks"/i);
  });
});
