import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pgliteDatabase } from '../src/server/platform/db/database.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: { fresh: string; migrated: string } | null;
    /** On PostgreSQL: the migrated database each test file's own database is copied from. */
    postgresTemplate: string | null;
  }
}

async function writeDump(client: PGlite, file: string): Promise<void> {
  // The dump copies data files: flush everything to them first, or a restore misses recent work.
  await client.exec('checkpoint');
  const dump = await client.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
}

/**
 * PGlite's initdb costs seconds and every test file needs a database of its own: make the two
 * starting points (empty, and migrated) once per run, and let each file restore one in memory.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    const serverUrl = process.env.DATABASE_URL;
    const template = await makeMigratedTemplate(serverUrl);
    project.provide('pgliteTemplates', null);
    project.provide('postgresTemplate', template);
    return () => adminQuery(serverUrl, `drop database if exists ${template} with (force)`);
  }
  project.provide('postgresTemplate', null);
  const dir = mkdtempSync(path.join(tmpdir(), 'pension-pglite-templates-'));
  const files = { fresh: path.join(dir, 'fresh.tar'), migrated: path.join(dir, 'migrated.tar') };
  const client = new PGlite();
  await client.waitReady;
  await writeDump(client, files.fresh);
  await migrate(pgliteDatabase(client));
  await writeDump(client, files.migrated);
  await client.close();
  project.provide('pgliteTemplates', files);
  return () => rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * One migrated database for the whole run, which every test file's database is created from
 * (`create database … template …`): a copy takes tens of milliseconds where applying every
 * migration again took seconds a file (docs/decisions/0087-ci-time.md). The
 * migrations run here once, alone, which also makes the cluster-wide runtime roles before any
 * file starts: two databases migrating at once on a cluster that has none yet could both find a
 * role absent and both create it, and the second would fail on the catalog's unique index.
 */
async function makeMigratedTemplate(serverUrl: string): Promise<string> {
  const name = `pension_test_template_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const database = await openPostgres(url.toString(), url.toString(), 1);
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  return name;
}
