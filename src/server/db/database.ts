import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Config } from '../config/config.js';
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
   * and tenant settings of withActor). On a server they travel with BEGIN in a single round trip,
   * which matters when every request opens a transaction.
   */
  transaction<T>(prelude: readonly string[], work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction on a connection allowed to change the schema. */
  withMigrationConnection<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PGlite keeps its whole buffer pool in this process: small buffers keep the idle footprint small. */
const PGLITE_SETTINGS = [
  'shared_buffers = 8MB',
  'wal_buffers = 512kB',
  'max_connections = 5',
  'max_worker_processes = 0',
  'max_wal_senders = 0',
].join('\n');

export async function openDatabase(settings: Config['database']): Promise<Database> {
  return settings.kind === 'pglite'
    ? openPglite(settings.dataDir)
    : openPostgres(settings.url, settings.migrationUrl, settings.poolSize);
}

/**
 * V8 compiles WebAssembly twice by default: quickly, then again optimised in the background.
 * For PGlite's large module the second compile costs ~50 MB of resident memory and a core for
 * seconds after start, for about 8% faster queries (measured: docs/decisions.md). The embedded
 * database serves development and small installations, where memory and start-up matter more.
 * Must run before the first module is compiled; PostgreSQL mode loads no WebAssembly at all.
 */
function compileWebAssemblyOnce(): void {
  v8.setFlagsFromString('--liftoff-only');
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
    transaction: (prelude, work) =>
      db.transaction(async (tx) => {
        for (const statement of prelude) await tx.execute(sql.raw(statement));
        return work(tx);
      }),
    withMigrationConnection: (work) => db.transaction(work),
    close: () => client.close(),
  };
}

export async function openPostgres(
  url: string,
  migrationUrl: string,
  poolSize: number,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'pension-admin',
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  // A query builder bound to each pooled connection, made once per connection.
  const connectionDbs = new WeakMap<pg.PoolClient, Db>();
  return {
    kind: 'postgres',
    db,
    async transaction(prelude, work) {
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        let connectionDb = connectionDbs.get(client);
        if (!connectionDb) {
          connectionDb = drizzlePg({ client, schema }) as unknown as Db;
          connectionDbs.set(client, connectionDb);
        }
        // Without parameters pg sends this as one simple query: BEGIN and the prelude together.
        await client.query(['begin', ...prelude].join('; '));
        try {
          const result = await work(connectionDb);
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch((rollbackError: Error) => {
            failure = rollbackError;
          });
          throw error;
        }
      } finally {
        // A connection whose rollback failed is in an unknown state: close it rather than reuse it.
        client.release(failure);
      }
    },
    async withMigrationConnection(work) {
      const client = new pg.Client({
        connectionString: migrationUrl,
        connectionTimeoutMillis: 10_000,
      });
      client.on('error', () => undefined);
      await client.connect();
      try {
        const migrationDb = drizzlePg({ client, schema }) as unknown as Db;
        return await migrationDb.transaction(work);
      } finally {
        await client.end();
      }
    },
    close: () => pool.end(),
  };
}

/** Rows of a raw `execute` result; both drivers answer with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
