import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pgliteDatabase } from '../src/server/db/database.js';
import { migrate } from '../src/server/db/migrator.js';
import { openPostgres } from '../src/server/db/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: { fresh: string; migrated: string } | null;
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
    await makeClusterRoles(process.env.DATABASE_URL);
    project.provide('pgliteTemplates', null);
    return;
  }
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

/**
 * The runtime roles are cluster-wide and the migrations create them when missing. Two databases
 * migrating at once on a cluster that has none yet can both find a role absent and both create
 * it, and the second fails on the catalog's unique index. Every test file migrates a database of
 * its own, in parallel: one migration first, alone, leaves the roles made before the files start.
 */
async function makeClusterRoles(serverUrl: string): Promise<void> {
  const name = `pension_test_roles_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  try {
    url.pathname = `/${name}`;
    const database = await openPostgres(url.toString(), url.toString(), 1);
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}
