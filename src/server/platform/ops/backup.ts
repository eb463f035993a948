import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { loadMigrations, MIGRATIONS_FOLDER } from '../db/migrator.js';
import { postgresProgram } from './programs.js';

/**
 * Backup and restore of one installation (docs/backups.md): the PostgreSQL database as
 * a `pg_dump --format=custom` archive, the document store's files as they are kept under
 * DATA_DIR/documents, and a manifest naming each file with its SHA-256. A restore goes into an
 * empty database and an empty document store only, so that it can never mix two states.
 */

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database.dump';
export const DOCUMENTS_FOLDER = 'documents';
/** The staging area (documents/storage.ts) holds uploads not yet committed: never backed up. */
const STAGING_DIRECTORY = '.staging';

export interface BackupManifest {
  format: 'pension-backup/1';
  takenAt: string;
  /** The schema the dump was taken at: how many migrations were applied and the last one's tag. */
  migrations: { applied: number; latest: string | null };
  /** Every file of the backup, relative to its folder, with its SHA-256 (hex) and size. */
  files: Array<{ path: string; sha256: string; size: number }>;
  /** What holds the document bytes: backed up here (local) or left to the bucket (s3). */
  documentStore: 'local' | 's3';
}

export interface OpsOutput {
  out(line: string): void;
}

/** The database side of a backup: where it is and who owns it (the migration URL). */
export interface BackupTarget {
  ownerUrl: string;
  documents: { kind: 'local'; root: string } | { kind: 's3' };
}

/** A failure the command explains to the operator in its own words (exit status 1). */
export class OpsError extends Error {
  override name = 'OpsError';
}

/** A PostgreSQL client program, or an OpsError saying how to get it. */
export async function findPostgresTool(name: 'pg_dump' | 'pg_restore'): Promise<string> {
  const found = postgresProgram(name);
  if (found) return found;
  throw new OpsError(
    `${name} was not found on PATH nor under /usr/lib/postgresql/*/bin: install the PostgreSQL client programs (the same major version as the server, or newer)`,
  );
}

/**
 * The libpq environment for a URL, so that the password travels in the child's environment and
 * not on its command line, where every user of the machine could read it (ps).
 */
function libpqEnvironment(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PGPASSWORD;
  if (password) env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

function runTool(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      // The tool's own words name objects and settings, never row values; the tail is enough.
      errors = `${errors}${chunk.toString('utf8')}`.slice(-4_000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new OpsError(`${path.basename(file)} failed (exit ${code}): ${errors.trim()}`));
    });
  });
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `root`, relative to it with forward slashes, skipping `skip` at the top. */
async function filesUnder(root: string, skip: readonly string[] = []): Promise<string[]> {
  const found: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && skip.includes(entry.name)) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  }
  await walk('');
  return found.sort();
}

async function withOwner<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function migrationLevel(client: pg.Client): Promise<BackupManifest['migrations']> {
  const { rows } = await client.query<{ hash: string }>(
    'select hash from schema_migrations order by created_at',
  );
  const tags = new Map(loadMigrations(MIGRATIONS_FOLDER).map((m) => [m.hash, m.tag]));
  const last = rows.at(-1);
  return { applied: rows.length, latest: last ? (tags.get(last.hash) ?? last.hash) : null };
}

/**
 * Takes a backup into `folder` (absent or empty). The dump is one snapshot of the database; the
 * documents are copied after it. A document's row commits before its file is moved under its key
 * (docs/decisions/0062-document-vault.md), so a row in the snapshot whose file was not yet in
 * place is looked for again until it is, and every copied file is checked against the SHA-256 its
 * row recorded. Files of uploads committed after the snapshot may be copied too: no row names
 * them after a restore, and they are inert.
 */
export async function takeBackup(
  target: BackupTarget,
  folder: string,
  output: OpsOutput,
  now: () => Date = () => new Date(),
): Promise<BackupManifest> {
  const pgDump = await findPostgresTool('pg_dump');
  const existing = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (existing.length > 0) {
    throw new OpsError(`${folder} is not empty: a backup is written into a new or empty folder`);
  }
  await mkdir(folder, { recursive: true, mode: 0o700 });

  const takenAt = now();
  const migrations = await withOwner(target.ownerUrl, migrationLevel);
  const dumpFile = path.join(folder, DATABASE_FILE);
  const { dbname, env } = libpqEnvironment(target.ownerUrl);
  // Custom format: compressed, and pg_restore can restore it selectively or in parallel.
  await runTool(pgDump, ['--format=custom', `--file=${dumpFile}`, `--dbname=${dbname}`], env);
  // It holds every tenant's data (PPS numbers sealed, names and addresses in the clear).
  await chmod(dumpFile, 0o600);
  output.out(`Database dumped (${migrations.applied} migration(s), latest ${migrations.latest}).`);

  const files: BackupManifest['files'] = [];
  const record = async (relative: string) => {
    const file = path.join(folder, relative);
    files.push({ path: relative, sha256: await sha256Of(file), size: (await stat(file)).size });
  };
  await record(DATABASE_FILE);

  if (target.documents.kind === 's3') {
    output.out(
      'Documents are kept in an S3 bucket: they are not copied here. The bucket’s own versioning and replication are their backup (docs/backups.md).',
    );
  } else {
    const root = target.documents.root;
    const copied = await copyDocuments(root, path.join(folder, DOCUMENTS_FOLDER));
    const expected = await withOwner(target.ownerUrl, (client) =>
      client
        // Every row there is now: a superset of the rows in the dump's snapshot, taken before.
        .query<{ storage_key: string; sha256: string }>('select storage_key, sha256 from documents')
        .then((result) => result.rows),
    );
    for (const { storage_key: key, sha256 } of expected) {
      const relative = `${DOCUMENTS_FOLDER}/${key}`;
      if (!copied.has(key)) await copyLate(root, key, path.join(folder, relative));
      const actual = await sha256Of(path.join(folder, relative));
      if (actual !== sha256) {
        throw new OpsError(
          `the stored file of a document does not match its recorded SHA-256 (${key}): the document store is damaged; the backup is incomplete`,
        );
      }
    }
    for (const key of await filesUnder(path.join(folder, DOCUMENTS_FOLDER))) {
      await record(`${DOCUMENTS_FOLDER}/${key}`);
    }
    output.out(`Documents copied: ${files.length - 1} file(s), ${expected.length} checked.`);
  }

  const manifest: BackupManifest = {
    format: 'pension-backup/1',
    takenAt: takenAt.toISOString(),
    migrations,
    files,
    documentStore: target.documents.kind,
  };
  await writeFile(path.join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  output.out(`Backup written to ${folder} (${MANIFEST_FILE} lists every file and its SHA-256).`);
  return manifest;
}

async function copyDocuments(root: string, into: string): Promise<Set<string>> {
  const keys = await filesUnder(root, [STAGING_DIRECTORY]);
  for (const key of keys) {
    await mkdir(path.dirname(path.join(into, key)), { recursive: true, mode: 0o700 });
    await copyFile(path.join(root, key), path.join(into, key));
    await chmod(path.join(into, key), 0o600);
  }
  return new Set(keys);
}

/** A row's file that was still being moved under its key: waited for a few seconds, no longer. */
async function copyLate(root: string, key: string, to: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if ((await stat(path.join(root, key)).catch(() => null))?.isFile()) {
      await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
      await copyFile(path.join(root, key), to);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new OpsError(
    `a document's file is missing from the document store (${key}): the backup is incomplete`,
  );
}

/** Reads a backup's manifest and checks every file it names against its SHA-256. */
export async function verifyBackup(folder: string): Promise<BackupManifest> {
  const text = await readFile(path.join(folder, MANIFEST_FILE), 'utf8').catch(() => {
    throw new OpsError(`${folder} holds no ${MANIFEST_FILE}: it is not a backup this tool wrote`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== 'pension-backup/1') {
    throw new OpsError(`${MANIFEST_FILE} is of an unknown format`);
  }
  for (const file of manifest.files) {
    // As takeBackup writes them: relative, forward slashes, no `.` or `..` segment. Resolving
    // inside the folder is not enough: a restore copies `documents/<key>` to `<key>` under the
    // document store, where `documents/../x` would land beside it.
    const segments = file.path.split('/');
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
      throw new OpsError(`${MANIFEST_FILE} names a file outside the backup`);
    }
    const resolved = path.resolve(folder, file.path);
    if (!resolved.startsWith(`${path.resolve(folder)}${path.sep}`)) {
      throw new OpsError(`${MANIFEST_FILE} names a file outside the backup`);
    }
    const actual = await sha256Of(resolved).catch(() => null);
    if (actual !== file.sha256) {
      throw new OpsError(
        `${file.path} is ${actual === null ? 'missing' : 'not the file that was backed up (SHA-256 differs)'}: nothing was restored`,
      );
    }
  }
  return manifest;
}

/** Tables, views, sequences and the like in the database's own schemas. */
async function userRelationCount(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
        and n.nspname not like 'pg_temp%'`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Restores the backup in `folder` into an empty database and an empty document store, after the
 * manifest's hashes all verify; refuses, changing nothing, when either already holds anything.
 * The audit chains are verified by the caller afterwards (cli.ts), as `audit:verify` does.
 */
export async function restoreBackup(
  target: BackupTarget,
  folder: string,
  output: OpsOutput,
): Promise<BackupManifest> {
  const pgRestore = await findPostgresTool('pg_restore');
  const manifest = await verifyBackup(folder);
  output.out(`Backup of ${manifest.takenAt}: every file matches its SHA-256.`);

  const relations = await withOwner(target.ownerUrl, userRelationCount);
  if (relations > 0) {
    throw new OpsError(
      'the target database is not empty: restore into a newly created, empty database (nothing was changed)',
    );
  }
  if (target.documents.kind === 'local') {
    const present = await filesUnder(target.documents.root, [STAGING_DIRECTORY]);
    if (present.length > 0) {
      throw new OpsError(
        'the document store (DATA_DIR/documents) is not empty: restore into an empty one (nothing was changed)',
      );
    }
  }
  if (manifest.documentStore !== target.documents.kind) {
    throw new OpsError(
      `the backup's documents were kept in ${manifest.documentStore}, this installation keeps them in ${target.documents.kind}: configure the same document store (nothing was changed)`,
    );
  }

  const { dbname, env } = libpqEnvironment(target.ownerUrl);
  // One transaction: a failure leaves the database as empty as it was found. --no-owner: the
  // objects belong to whoever restores (the owner login of this installation), whatever the
  // original owner was called; the grants to the service's roles are restored as they were.
  await runTool(
    pgRestore,
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      `--dbname=${dbname}`,
      path.join(folder, DATABASE_FILE),
    ],
    env,
  );
  output.out('Database restored.');

  if (target.documents.kind === 'local') {
    const root = target.documents.root;
    const prefix = `${DOCUMENTS_FOLDER}/`;
    let copied = 0;
    for (const file of manifest.files) {
      if (!file.path.startsWith(prefix)) continue;
      const to = path.join(root, file.path.slice(prefix.length));
      await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
      await copyFile(path.join(folder, file.path), to);
      if ((await sha256Of(to)) !== file.sha256) {
        throw new OpsError(`${file.path} was not written whole into the document store`);
      }
      copied += 1;
    }
    output.out(`Documents restored: ${copied} file(s), each checked against its SHA-256.`);
  }
  return manifest;
}
