import { open } from 'node:fs/promises';
import v8 from 'node:v8';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { ConnectionBounds } from './connection-bounds.js';
import * as schema from './schema.js';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What work inside a transaction may use: queries, not transaction control. */
export type Transaction = Omit<
  PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>,
  'rollback' | 'transaction' | 'setTransaction' | 'getTransactionConfigSQL'
>;

/**
 * The connection to PostgreSQL (a server, or PGlite embedded in this process). Its `db` runs as
 * the connecting user: services never use it directly, they go through withActor.
 */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /**
   * One transaction that first runs `prelude`: trusted statements without parameters (the role
   * and tenant settings of withActor, and the request's session check). On a server they travel
   * in one message with the first statement of `work` (postgres.ts), which matters when every
   * request opens a transaction. `onPreludeRan` is called once the prelude has run without error.
   */
  transaction<T>(
    prelude: readonly string[],
    work: (tx: Transaction) => Promise<T>,
    onPreludeRan?: () => void,
  ): Promise<T>;
  /** Runs `work` in one transaction on a connection allowed to change the schema. */
  withMigrationConnection<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Loads `file`, rows in PostgreSQL's COPY text format, into `target` inside the transaction
   * `tx` (one this database opened) and answers how many rows arrived. The file is streamed, not
   * read whole. Meant for a temporary table of that transaction: COPY does not apply row-level
   * security, so tenant tables are filled from there with INSERT … SELECT, which does.
   */
  copyFrom(tx: Transaction, target: CopyTarget, file: string): Promise<number>;
  /**
   * As `copyFrom`, from COPY text lines (each ending in `\n`) made while the rows arrive: on a
   * server, the database reads the first lines while later ones are still being made.
   */
  copyLines(tx: Transaction, target: CopyTarget, lines: Iterable<string>): Promise<number>;
  /**
   * Raises the statement bound of the transaction `tx` (one this database opened) to the bulk
   * bound, for the transaction that writes a whole upload (docs/decisions/0085). The embedded
   * database has no statement bound to raise.
   */
  allowBulkStatements(tx: Transaction): Promise<void>;
  close(): Promise<void>;
  /**
   * The connection pool's state, for the metrics endpoint (docs/decisions/0077-metrics.md).
   * Absent for the embedded database, which has one connection and no pool.
   */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Requests queued for a connection because all are in use. */
  waiting: number;
  /** The most the pool will open. */
  max: number;
}

/**
 * Statements a transaction's final steps send together (the audit chain's append): on a
 * server each call is one message, one round trip; the embedded database runs them in turn.
 */
export interface StatementBatcher {
  /** Runs `statements` in order, each seeing what the one before did; answers each one's rows. */
  together(statements: readonly SQLWrapper[]): Promise<Record<string, unknown>[][]>;
  /**
   * Runs `statement` in this transaction no later than its COMMIT, on a server in the same
   * message as the COMMIT; a failure fails the transaction. The caller learns nothing more of it.
   */
  atCommit(statement: SQLWrapper): Promise<void>;
}

const batchers = new WeakMap<object, StatementBatcher>();

/** Registers the batcher of the transactions that `tx` (a connection's query builder) serves. */
export function registerBatcher(tx: object, batcher: StatementBatcher): void {
  batchers.set(tx, batcher);
}

/** The batcher of `tx`, a transaction opened by a Database of this module. */
export function batcherOf(tx: Transaction): StatementBatcher {
  const batcher = batchers.get(tx);
  if (!batcher) throw new Error('not a transaction opened by this service’s database');
  return batcher;
}

/** A table and the columns the rows of a COPY file fill, in the file's order. */
export interface CopyTarget {
  table: string;
  columns: readonly string[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** The column list of a COPY statement; names are our own constants, checked rather than escaped. */
export function copyTargetSql({ table, columns }: CopyTarget): string {
  for (const name of [table, ...columns]) {
    if (!IDENTIFIER.test(name)) throw new Error(`not a plain identifier: ${name}`);
  }
  return `"${table}" (${columns.map((column) => `"${column}"`).join(', ')})`;
}

/**
 * PGlite keeps its whole buffer pool in this process: small buffers keep the idle footprint small
 * (docs/decisions/0114-a-lean-embedded-start.md). Pages it does not hold are read from the data
 * directory through the operating system's cache.
 */
const PGLITE_SETTINGS = [
  'shared_buffers = 2MB',
  'wal_buffers = 512kB',
  'max_connections = 5',
  'max_worker_processes = 0',
  'max_wal_senders = 0',
].join('\n');

/** Where the data lives: the embedded database in a folder, or a PostgreSQL server (config.ts reads it). */
export type DatabaseSettings =
  | { kind: 'pglite'; dataDir: string }
  | {
      kind: 'postgres';
      url: string;
      migrationUrl: string;
      poolSize: number;
      bounds: ConnectionBounds;
    };

export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  if (settings.kind === 'pglite') return openPglite(settings.dataDir);
  // Loaded only for a server: the PostgreSQL driver is a tenth of an embedded start-up.
  const { openPostgres } = await import('./postgres.js');
  return openPostgres(settings.url, settings.migrationUrl, settings.poolSize, settings.bounds);
}

/**
 * V8 compiles WebAssembly twice by default: quickly, then again optimised in the background.
 * For PGlite's large module the second compile costs ~50 MB of resident memory and a core for
 * seconds after start, for about 8% faster queries (measured: docs/decisions/0004-memory-settings-pglite-and-v8.md). The embedded
 * database serves development and small installations, where memory and start-up matter more.
 * Must run before the first module is compiled; PostgreSQL mode loads no WebAssembly at all.
 */
function compileWebAssemblyOnce(): void {
  // Set at run time, a flag does not bring its implications along, and since Node 24 (V8 13)
  // --liftoff-only alone no longer stops the tier-up: the two flags it implies are set as well.
  v8.setFlagsFromString('--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering');
}

/**
 * An embedded database kept in `dataDir`, or in memory when `dataDir` is null. `restoreFrom`
 * starts an in-memory database from a dump made by `dumpDataDir`, skipping initdb.
 */
export async function openPglite(dataDir: string | null, restoreFrom?: Blob): Promise<Database> {
  compileWebAssemblyOnce();
  // The options-object form: `new PGlite(undefined, options)` silently ignores the options.
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(restoreFrom ? { loadDataDir: restoreFrom } : {}),
    postgresqlconf: PGLITE_SETTINGS,
  });
  await client.waitReady;
  return pgliteDatabase(client);
}

export function pgliteDatabase(client: PGlite): Database {
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    transaction: (prelude, work, onPreludeRan) =>
      db.transaction(async (tx) => {
        for (const statement of prelude) await tx.execute(sql.raw(statement));
        onPreludeRan?.();
        registerBatcher(tx, {
          async together(statements) {
            const answers: Record<string, unknown>[][] = [];
            for (const statement of statements) {
              answers.push(rowsOf(await tx.execute(statement.getSQL())));
            }
            return answers;
          },
          async atCommit(statement) {
            await tx.execute(statement.getSQL());
          },
        });
        return work(tx);
      }),
    withMigrationConnection: (work) => db.transaction(work),
    allowBulkStatements: async () => undefined,
    copyFrom: (tx, target, file) =>
      copyIntoPglite(pgliteTransactionOf(tx), target, pieceOfFile(file)),
    copyLines: (tx, target, lines) =>
      copyIntoPglite(pgliteTransactionOf(tx), target, pieceOfLines(lines)),
    close: () => client.close(),
  };
}

/** Drizzle's PGlite transaction keeps PGlite's own transaction object as its session's client. */
function pgliteTransactionOf(tx: Transaction): PgliteTransaction {
  const client = (tx as unknown as { session?: { client?: PgliteTransaction } }).session?.client;
  if (!client || typeof client.query !== 'function') {
    throw new Error('copyFrom needs a transaction opened by this database');
  }
  return client;
}

/**
 * PGlite reads a COPY from the device `/dev/blob`, fed by the `blob` option of one query, and
 * holds that blob whole in memory: the file goes in pieces of about this size, cut at line ends.
 */
const PGLITE_COPY_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * COPY text lines gathered into pieces of at least `characters` characters (the last may be
 * shorter), so that a COPY stream is written a few hundred KiB at a time rather than a line at a
 * time.
 */
export function* inPieces(lines: Iterable<string>, characters: number): Generator<string> {
  let piece: string[] = [];
  let length = 0;
  for (const line of lines) {
    piece.push(line);
    length += line.length;
    if (length >= characters) {
      yield piece.join('');
      piece = [];
      length = 0;
    }
  }
  if (piece.length > 0) yield piece.join('');
}

/** A file's pieces of at most PGLITE_COPY_PIECE_BYTES, each ending at a line end. */
async function* pieceOfFile(file: string): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(PGLITE_COPY_PIECE_BYTES);
    let carried = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, carried, buffer.length - carried);
      const filled = carried + bytesRead;
      if (filled === 0) break;
      // The last line end in the buffer; at the end of the file, whatever is left.
      const cut = bytesRead === 0 ? filled : buffer.lastIndexOf(0x0a, filled - 1) + 1;
      if (cut === 0) throw new Error('a COPY line is longer than the piece size');
      // Not copied: the COPY has taken the piece (a Blob holds its own bytes) before this
      // generator resumes and writes the buffer again.
      yield buffer.subarray(0, cut);
      buffer.copy(buffer, 0, cut, filled);
      carried = filled - cut;
    }
  } finally {
    await handle.close();
  }
}

/** Whole lines gathered into pieces of at most PGLITE_COPY_PIECE_BYTES. */
async function* pieceOfLines(lines: Iterable<string>): AsyncGenerator<Buffer> {
  let piece: Buffer[] = [];
  let bytes = 0;
  for (const line of lines) {
    const encoded = Buffer.from(line, 'utf8');
    if (encoded.length > PGLITE_COPY_PIECE_BYTES) {
      throw new Error('a COPY line is longer than the piece size');
    }
    if (bytes + encoded.length > PGLITE_COPY_PIECE_BYTES) {
      yield Buffer.concat(piece);
      piece = [];
      bytes = 0;
    }
    piece.push(encoded);
    bytes += encoded.length;
  }
  if (bytes > 0) yield Buffer.concat(piece);
}

/**
 * COPY from a file needs the session user (pg_read_server_files), which work running as
 * pension_app is not: only this statement runs as the session user, and only into `target`, then
 * the transaction's role is restored. The embedded database has no server files to protect.
 */
async function copyIntoPglite(
  tx: PgliteTransaction,
  target: CopyTarget,
  pieces: AsyncIterable<Buffer>,
): Promise<number> {
  const statement = `copy ${copyTargetSql(target)} from '/dev/blob'`;
  const [current] = (await tx.query<{ role: string }>('select current_user as role')).rows;
  await tx.query('set local role none');
  let rows = 0;
  for await (const piece of pieces) {
    const result = await tx.query(statement, [], { blob: new Blob([piece]) });
    rows += result.affectedRows ?? 0;
  }
  await tx.query("select set_config('role', $1, true)", [current?.role ?? 'none']);
  return rows;
}

/** Rows of a raw `execute` result; both drivers answer with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Values as one PostgreSQL array literal, `{"a","b"}`, each element quoted, for a single
 * `${…}::text[]` (or `::date[]`, `::int[]`) parameter: one parameter however many values, where
 * drizzle would spread a JavaScript array into a list of parameters.
 */
export function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.map((value) => `"${String(value).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
