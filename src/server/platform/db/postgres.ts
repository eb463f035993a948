import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type SQLWrapper, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import {
  boundsStatement,
  type ConnectionBounds,
  currentQuerySignal,
  DEFAULT_CONNECTION_BOUNDS,
  QueryCancelledError,
  wholeMilliseconds,
} from './connection-bounds.js';
import { copyTargetSql, type Database, type Db, inPieces, registerBatcher } from './database.js';
import { spoilsPreparedStatements } from './database-errors.js';
import * as schema from './schema.js';

/**
 * A PostgreSQL server through a pool of connections (database.ts has the contract). Every
 * statement, lock wait and open transaction on the pool is bounded by `bounds`
 * (docs/decisions/0085); the migration connection is not, since a migration may rightly take
 * long.
 */
export async function openPostgres(
  url: string,
  migrationUrl: string,
  poolSize: number,
  bounds: ConnectionBounds = DEFAULT_CONNECTION_BOUNDS,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'pension-admin',
    // Queries are written without waiting for the answers before them (BatchingClient below).
    pipeline: true,
  } as pg.PoolConfig);
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // The bounds as the connection's own settings, for the statements sent outside a transaction
  // (user lookups, probes). Queued before anything the connection is first lent for, and set
  // again in every transaction (BatchingClient), which is what holds behind a pooler in
  // transaction mode, where a session setting stays with whichever server connection ran it.
  // A failure here surfaces as the connection's next query failing.
  const sessionBounds = boundsStatement(bounds, false);
  const transactionBounds = boundsStatement(bounds, true);
  pool.on('connect', (client) => {
    client.query(sessionBounds).catch(() => undefined);
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  // A query builder bound to each pooled connection through its batching client, made once per
  // connection, and the way back from a transaction's query builder to that client.
  const connectionDbs = new WeakMap<pg.PoolClient, Db>();
  const batchingOf = new WeakMap<Db, BatchingClient>();
  return {
    kind: 'postgres',
    db,
    async transaction(prelude, work, onPreludeRan) {
      const signal = currentQuerySignal();
      if (signal?.aborted) throw new QueryCancelledError();
      const client = await pool.connect();
      // The pool listens for errors of idle connections only. A connection lost while checked out
      // (the server terminated the backend) also emits 'error', which without a listener would
      // end the process; the query in flight is rejected with that error all the same.
      client.on('error', ignoreConnectionError);
      let failure: Error | undefined;
      let batching: BatchingClient | undefined;
      // The request's client went away: nothing more is sent, and the statement in flight is
      // cancelled on the server rather than left to run on a shared connection. The connection
      // is then closed, not reused: a cancel request is delivered on a connection of its own and
      // could otherwise reach the server after the next transaction's statement started.
      const cancel = () => {
        failure = new QueryCancelledError();
        batching?.refuseFurtherStatements();
        cancelOnServer(client);
      };
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        if (signal?.aborted) throw new QueryCancelledError();
        let connectionDb = connectionDbs.get(client);
        if (!connectionDb) {
          const created = new BatchingClient(client, transactionBounds);
          connectionDb = drizzlePg({
            client: created as unknown as pg.PoolClient,
            schema,
          }) as unknown as Db;
          connectionDbs.set(client, connectionDb);
          batchingOf.set(connectionDb, created);
          registerBatcher(connectionDb, created);
        }
        batching = batchingOf.get(connectionDb) as BatchingClient;
        batching.open(prelude, onPreludeRan);
        try {
          const result = await work(connectionDb);
          await batching.commit();
          return result;
        } catch (error) {
          await batching.rollback().catch((rollbackError: Error) => {
            failure = rollbackError;
          });
          if (!failure && spoilsPreparedStatements(error)) failure = error as Error;
          throw error;
        }
      } finally {
        signal?.removeEventListener('abort', cancel);
        batching?.close();
        client.off('error', ignoreConnectionError);
        // A connection whose rollback failed is in an unknown state, one whose prepared
        // statements went stale would fail them again, and one whose statement was cancelled
        // may still receive the cancel: close it rather than reuse it.
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
    async copyFrom(tx, target, file) {
      const batching = batchingOf.get(tx as Db);
      if (!batching) throw new Error('copyFrom needs a transaction opened by this database');
      // COPY talks to the connection directly: its transaction must be open, role and tenant set.
      return batching.copy(async (client) => {
        const copy = client.query(copyFromStdin(`copy ${copyTargetSql(target)} from stdin`));
        await pipeline(createReadStream(file, { highWaterMark: COPY_READ_BYTES }), copy);
        return copy.rowCount;
      });
    },
    async copyLines(tx, target, lines) {
      const batching = batchingOf.get(tx as Db);
      if (!batching) throw new Error('copyLines needs a transaction opened by this database');
      return batching.copy(async (client) => {
        const copy = client.query(copyFromStdin(`copy ${copyTargetSql(target)} from stdin`));
        await pipeline(Readable.from(inPieces(lines, COPY_PIECE_CHARACTERS)), copy);
        return copy.rowCount;
      });
    },
    async allowBulkStatements(tx) {
      await tx.execute(
        sql`select set_config('statement_timeout', ${wholeMilliseconds(bounds.bulkStatementTimeoutMs)}, true)`,
      );
    },
    close: () => pool.end(),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolSize,
    }),
  };
}

function ignoreConnectionError(): void {}

/**
 * Asks the server to cancel whatever `client`'s backend is running, as libpq's PQcancel does: a
 * CancelRequest with the backend's key on a connection of its own, which needs no login and no
 * pooled connection (the pool may be the thing that is exhausted). A backend that is idle ignores
 * it. Best effort: when the server cannot be reached the statement ends by its own bound.
 */
function cancelOnServer(client: pg.PoolClient): void {
  const { processID, secretKey, host, port } = client as unknown as {
    processID: number | null;
    secretKey: number | null;
    host: string;
    port: number;
  };
  if (processID === null || secretKey === null) return;
  const connection = new (pg as unknown as { Connection: new () => CancelConnection }).Connection();
  connection.on('error', () => undefined);
  connection.once('connect', () => {
    connection.cancel(processID, secretKey);
  });
  // A Unix socket directory is named by its host, as libpq names it.
  if (host.startsWith('/')) connection.connect(`${host}/.s.PGSQL.${port}`);
  else connection.connect(port, host);
}

/** What cancelOnServer uses of node-postgres's protocol connection. */
interface CancelConnection {
  on(event: 'error', listener: () => void): void;
  once(event: 'connect', listener: () => void): void;
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
}

/** Larger reads than the 64 KiB default: fewer CopyData messages for the same file. */
const COPY_READ_BYTES = 1024 * 1024;
/** Lines made on the fly are sent in pieces of about this size (inPieces). */
const COPY_PIECE_CHARACTERS = 256 * 1024;

interface QueryConfig {
  text: string;
  values?: unknown[];
  rowMode?: 'array';
  types?: unknown;
  name?: string;
}

/**
 * A builder select and nothing else: read-only, no row locks, nothing that lasts until the end
 * of a transaction (advisory transaction locks, transaction-local settings). Such a statement
 * means the same in a transaction of its own as in the request's (each statement of a READ
 * COMMITTED transaction reads its own snapshot anyway), so it can run in one that ends with it.
 * Raw statements (`tx.execute`) are never taken for reads.
 */
function isPlainRead(config: QueryConfig): boolean {
  return (
    config.rowMode === 'array' &&
    /^select\s/i.test(config.text) &&
    !/\bfor\s+(?:update|no\s+key\s+update|share|key\s+share)\b/i.test(config.text) &&
    !/_xact_|set_config/i.test(config.text)
  );
}

const dialect = new PgDialect();

/** A statement's text and values as Drizzle binds them. */
function queryOf(statement: SQLWrapper): QueryConfig {
  const { sql, params } = dialect.sqlToQuery(statement.getSQL());
  return { text: sql, values: params };
}

/** pg's socket, to write several queries in one go (cork, then uncork once all are queued). */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } {
  return (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } })
    .connection.stream;
}

/**
 * Settles every query of a pipelined batch (none is left with an unhandled rejection) and
 * answers their results, or throws the first failure in the order they were sent: a refused
 * session check fails the statements behind it with "transaction aborted", and its own error
 * is the one that tells what happened.
 */
async function inOrder(sent: Promise<pg.QueryResult>[]): Promise<pg.QueryResult[]> {
  const settled = await Promise.allSettled(sent);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<pg.QueryResult>).value);
}

/**
 * The client Drizzle talks to inside a transaction (docs/decisions/0060-request-path-one-round-trip.md).
 * The connection is in node-postgres's pipeline mode while a transaction holds it: queries are
 * written without waiting for the answers of the ones before, each with its own parameters, and
 * several are written to the socket at once. Nothing is sent when the transaction opens: the
 * prelude (the session check, the role and the tenant) goes in front of the first statement, so
 * a request's first statement costs one round trip:
 *
 * - A plain read (isPlainRead) before anything else goes as `begin; prelude`, the read, `commit`:
 *   a transaction of its own, nothing left open. A later statement carries the prelude again.
 * - Any other statement opens the request's transaction: `begin; prelude`, the statement. From
 *   then on statements go as they come, and the transaction ends with COMMIT (or ROLLBACK), with
 *   whatever the final steps left for it (atCommit) written in front of it.
 *
 * A prelude whose session check fails raises, and every statement behind it in the transaction
 * fails unexecuted. No value is ever written into a statement's text: each travels bound.
 */
class BatchingClient {
  private prelude = '';
  private onPreludeRan: (() => void) | undefined;
  private mode: 'closed' | 'implicit' | 'explicit' = 'closed';
  /** The queries that opened the explicit transaction, while they are on their way. */
  private opening: Promise<unknown> | null = null;
  /** Statements to send with COMMIT, in the same write (atCommit). */
  private beforeCommit: QueryConfig[] = [];

  /** Set once the transaction's request was cancelled: no statement is sent after that. */
  private refused = false;

  /** `bounds`: the connection bounds as transaction-local settings, sent after every BEGIN. */
  constructor(
    private readonly client: pg.PoolClient,
    private readonly bounds: string,
  ) {}

  open(prelude: readonly string[], onPreludeRan: (() => void) | undefined): void {
    this.prelude = ['begin', this.bounds, ...prelude].join('; ');
    this.refused = false;
    this.onPreludeRan = onPreludeRan;
    this.mode = 'implicit';
    this.opening = null;
    this.beforeCommit = [];
  }

  refuseFurtherStatements(): void {
    this.refused = true;
  }

  close(): void {
    this.mode = 'closed';
    this.onPreludeRan = undefined;
    this.opening = null;
    this.beforeCommit = [];
  }

  private preludeRan(): void {
    const ran = this.onPreludeRan;
    this.onPreludeRan = undefined;
    ran?.();
  }

  /** Writes `queries` to the socket in one go and answers each one's promise. */
  private send(queries: readonly (QueryConfig | string)[]): Promise<pg.QueryResult>[] {
    const socket = socketOf(this.client);
    socket.cork();
    try {
      return queries.map((query) =>
        typeof query === 'string'
          ? this.client.query(query)
          : this.client.query(query as pg.QueryConfig, query.values),
      );
    } finally {
      socket.uncork();
    }
  }

  /** Sends `statements` behind the prelude, opening the transaction (or one per read). */
  private async withPrelude(
    statements: readonly QueryConfig[],
    closeAfter: boolean,
  ): Promise<pg.QueryResult[]> {
    if (!closeAfter) this.mode = 'explicit';
    const sent = this.send([this.prelude, ...statements, ...(closeAfter ? ['commit'] : [])]);
    const settled = inOrder(sent);
    if (!closeAfter) this.opening = settled;
    const results = await settled;
    this.preludeRan();
    return results.slice(1, 1 + statements.length);
  }

  query(config: QueryConfig | string, values?: unknown[]): Promise<pg.QueryResult> {
    const given: QueryConfig = typeof config === 'string' ? { text: config } : config;
    const query: QueryConfig = values === undefined ? given : { ...given, values };
    if (this.mode === 'closed') {
      return Promise.reject(new Error('a query outside the transaction that owns the connection'));
    }
    if (this.refused) return Promise.reject(new QueryCancelledError());
    if (this.mode === 'explicit') {
      return this.client.query(query as pg.QueryConfig, query.values);
    }
    return this.withPrelude([query], isPlainRead(query)).then(
      (results) => results[0] as pg.QueryResult,
    );
  }

  /** Opens the real transaction now if no statement has (COPY needs it), and answers the client. */
  async explicitTransaction(): Promise<pg.PoolClient> {
    if (this.mode === 'implicit') await this.withPrelude([], false);
    await this.opening;
    return this.client;
  }

  /**
   * COPY streams through the connection itself, which pipeline mode does not allow: the
   * connection leaves it for the copy, with nothing else in flight (every statement of the
   * transaction is awaited before the copy starts).
   */
  async copy<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.explicitTransaction();
    (client as unknown as { pipeline: boolean }).pipeline = false;
    try {
      return await work(client);
    } finally {
      (client as unknown as { pipeline: boolean }).pipeline = true;
    }
  }

  /** StatementBatcher.together: one write, opening the transaction with it when need be. */
  async together(statements: readonly SQLWrapper[]): Promise<Record<string, unknown>[][]> {
    const queries = statements.map(queryOf);
    if (this.mode === 'closed') throw new Error('a batch outside its transaction');
    const results =
      this.mode === 'implicit'
        ? await this.withPrelude(queries, false)
        : await inOrder(this.send(queries));
    return results.map((result) => result.rows);
  }

  /** StatementBatcher.atCommit: kept for the COMMIT's write, or sent now outside one. */
  async atCommit(statement: SQLWrapper): Promise<void> {
    const query = queryOf(statement);
    if (this.mode === 'explicit') {
      this.beforeCommit.push(query);
      return;
    }
    await this.query(query);
  }

  async commit(): Promise<void> {
    const explicit = this.mode === 'explicit';
    this.mode = 'closed';
    const statements = this.beforeCommit;
    this.beforeCommit = [];
    if (!explicit) return;
    try {
      await inOrder(this.send([...statements, 'commit']));
    } catch (error) {
      // Whatever failed, the caller's ROLLBACK must still go out (a failure before the COMMIT
      // leaves the transaction open and aborted).
      this.mode = 'explicit';
      throw error;
    }
  }

  async rollback(): Promise<void> {
    const explicit = this.mode === 'explicit';
    this.mode = 'closed';
    this.beforeCommit = [];
    if (explicit) await this.client.query('rollback');
  }
}
