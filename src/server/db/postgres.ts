import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { copyTargetSql, type Database, type Db } from './database.js';
import * as schema from './schema.js';

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
  // A query builder bound to each pooled connection, made once per connection, and the way back
  // from a transaction's query builder to its connection (COPY talks to the connection directly).
  const connectionDbs = new WeakMap<pg.PoolClient, Db>();
  const connectionOf = new WeakMap<Db, pg.PoolClient>();
  return {
    kind: 'postgres',
    db,
    async transaction(prelude, work) {
      const client = await pool.connect();
      // The pool listens for errors of idle connections only. A connection lost while checked out
      // (the server terminated the backend) also emits 'error', which without a listener would
      // end the process; the query in flight is rejected with that error all the same.
      client.on('error', ignoreConnectionError);
      let failure: Error | undefined;
      try {
        let connectionDb = connectionDbs.get(client);
        if (!connectionDb) {
          connectionDb = drizzlePg({ client, schema }) as unknown as Db;
          connectionDbs.set(client, connectionDb);
          connectionOf.set(connectionDb, client);
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
      const client = connectionOf.get(tx as Db);
      if (!client) throw new Error('copyFrom needs a transaction opened by this database');
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
