import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { SQLWrapper } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { copyTargetSql, type Database, type Db, registerBatcher } from './database.js';
import * as schema from './schema.js';
import { inlineValues, NotInlinableError } from './simple-batch.js';

/** A PostgreSQL server through a pool of connections (database.ts has the contract). */
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
  // A query builder bound to each pooled connection through its batching client, made once per
  // connection, and the way back from a transaction's query builder to that client.
  const connectionDbs = new WeakMap<pg.PoolClient, Db>();
  const batchingOf = new WeakMap<Db, BatchingClient>();
  return {
    kind: 'postgres',
    db,
    async transaction(prelude, work, onPreludeRan) {
      const client = await pool.connect();
      // The pool listens for errors of idle connections only. A connection lost while checked out
      // (the server terminated the backend) also emits 'error', which without a listener would
      // end the process; the query in flight is rejected with that error all the same.
      client.on('error', ignoreConnectionError);
      let failure: Error | undefined;
      let batching: BatchingClient | undefined;
      try {
        let connectionDb = connectionDbs.get(client);
        if (!connectionDb) {
          const created = new BatchingClient(client);
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
          throw error;
        }
      } finally {
        batching?.close();
        client.off('error', ignoreConnectionError);
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
    async copyFrom(tx, target, file) {
      const batching = batchingOf.get(tx as Db);
      if (!batching) throw new Error('copyFrom needs a transaction opened by this database');
      // COPY talks to the connection directly: its transaction must be open, role and tenant set.
      const client = await batching.explicitTransaction();
      const copy = client.query(copyFromStdin(`copy ${copyTargetSql(target)} from stdin`));
      await pipeline(createReadStream(file, { highWaterMark: COPY_READ_BYTES }), copy);
      return copy.rowCount;
    },
    close: () => pool.end(),
  };
}

function ignoreConnectionError(): void {}

/** Larger reads than the 64 KiB default: fewer CopyData messages for the same file. */
const COPY_READ_BYTES = 1024 * 1024;

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
 * COMMITTED transaction reads its own snapshot anyway), so it can run as one message, committed
 * when it ends. Raw statements (`tx.execute`) are never taken for reads.
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
function queryOf(statement: SQLWrapper): { text: string; values: unknown[] } {
  const { sql, params } = dialect.sqlToQuery(statement.getSQL());
  return { text: sql, values: params };
}

/** Every statement's result of a simple-protocol message (pg answers an array for several). */
function allResults(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] {
  return Array.isArray(result) ? result : [result];
}

/** The last statement's result of a simple-protocol message (pg answers an array for several). */
function lastResult(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
  return Array.isArray(result) ? (result.at(-1) as pg.QueryResult) : result;
}

/**
 * The client Drizzle talks to inside a transaction (docs/decisions.md, "Request path (issue 18)").
 * Nothing is sent when the transaction opens: the prelude (the session check, the role and the
 * tenant) travels in front of the first statement, in one simple-protocol message with its values
 * written in (simple-batch.ts), so a request's first statement costs one round trip:
 *
 * - A plain read (isPlainRead) before anything else is sent as `prelude; read`: one message that
 *   PostgreSQL runs as one implicit transaction, its settings gone when it ends. Nothing is left
 *   to commit; a later statement carries the prelude again.
 * - Any other statement opens the real transaction: `begin; prelude; statement`. From then on
 *   statements go as they come, with their parameters, and the transaction ends with COMMIT (or
 *   ROLLBACK), as before.
 *
 * A prelude whose session check fails raises, and PostgreSQL skips the rest of the message.
 */
class BatchingClient {
  private prelude = '';
  private onPreludeRan: (() => void) | undefined;
  private mode: 'closed' | 'implicit' | 'explicit' = 'closed';
  /** The message that opened the explicit transaction, while it is on its way. */
  private opening: Promise<unknown> | null = null;
  /** Statements to send in front of COMMIT, in one message with it (atCommit). */
  private beforeCommit: string[] = [];

  constructor(private readonly client: pg.PoolClient) {}

  open(prelude: readonly string[], onPreludeRan: (() => void) | undefined): void {
    this.prelude = prelude.join('; ');
    this.onPreludeRan = onPreludeRan;
    this.mode = 'implicit';
    this.opening = null;
    this.beforeCommit = [];
  }

  close(): void {
    this.mode = 'closed';
    this.onPreludeRan = undefined;
    this.opening = null;
  }

  private preludeRan(): void {
    const ran = this.onPreludeRan;
    this.onPreludeRan = undefined;
    ran?.();
  }

  query(config: QueryConfig | string, values?: unknown[]): Promise<pg.QueryResult> {
    const query: QueryConfig = typeof config === 'string' ? { text: config } : config;
    const bound = values ?? query.values;
    if (this.mode === 'closed') {
      return Promise.reject(new Error('a query outside the transaction that owns the connection'));
    }
    if (this.mode === 'explicit') return this.client.query(query as pg.QueryConfig, bound);
    let text: string;
    try {
      text = inlineValues(query.text, bound);
    } catch (error) {
      if (!(error instanceof NotInlinableError)) return Promise.reject(error);
      return this.explicitTransaction().then(() =>
        this.client.query(query as pg.QueryConfig, bound),
      );
    }
    const plain = isPlainRead(query);
    if (!plain) this.mode = 'explicit';
    const message = plain ? `${this.prelude}; ${text}` : `begin; ${this.prelude}; ${text}`;
    const sent = this.client
      .query({
        text: message,
        ...(query.rowMode ? { rowMode: query.rowMode } : {}),
        ...(query.types ? { types: query.types } : {}),
      } as pg.QueryConfig)
      .then((result) => {
        this.preludeRan();
        return lastResult(result as pg.QueryResult | pg.QueryResult[]);
      });
    if (!plain) this.opening = sent;
    return sent;
  }

  /** Opens the real transaction now if no statement has (COPY needs it), and answers the client. */
  async explicitTransaction(): Promise<pg.PoolClient> {
    if (this.mode === 'implicit') {
      this.mode = 'explicit';
      this.opening = this.client.query(`begin; ${this.prelude}`).then(() => this.preludeRan());
    }
    await this.opening;
    return this.client;
  }

  /** StatementBatcher.together: one message, opening the transaction with it when need be. */
  async together(statements: readonly SQLWrapper[]): Promise<Record<string, unknown>[][]> {
    const texts: string[] = [];
    const queries = statements.map(queryOf);
    try {
      for (const { text, values } of queries) texts.push(inlineValues(text, values));
    } catch (error) {
      if (!(error instanceof NotInlinableError)) throw error;
      const answers: Record<string, unknown>[][] = [];
      for (const query of queries) answers.push((await this.query(query)).rows);
      return answers;
    }
    const opens = this.mode === 'implicit';
    if (this.mode === 'closed') throw new Error('a batch outside its transaction');
    this.mode = 'explicit';
    const message = opens ? `begin; ${this.prelude}; ${texts.join('; ')}` : texts.join('; ');
    const sent = this.client.query(message);
    if (opens) this.opening = sent;
    const results = allResults((await sent) as pg.QueryResult | pg.QueryResult[]);
    if (opens) this.preludeRan();
    return results.slice(results.length - texts.length).map((result) => result.rows);
  }

  /** StatementBatcher.atCommit: kept for the COMMIT message (or sent now if it cannot travel so). */
  async atCommit(statement: SQLWrapper): Promise<void> {
    const { text, values } = queryOf(statement);
    try {
      const inlined = inlineValues(text, values);
      if (this.mode === 'explicit') {
        this.beforeCommit.push(inlined);
        return;
      }
    } catch (error) {
      if (!(error instanceof NotInlinableError)) throw error;
    }
    await this.query({ text, values });
  }

  async commit(): Promise<void> {
    const explicit = this.mode === 'explicit';
    this.mode = 'closed';
    const statements = this.beforeCommit;
    this.beforeCommit = [];
    if (!explicit) return;
    try {
      await this.client.query([...statements, 'commit'].join('; '));
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
