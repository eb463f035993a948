import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long the service's work may hold or wait on a database connection (docs/decisions/0085).
 * A pooled connection is shared by every tenant: a statement, a lock wait or an open transaction
 * without a bound can hold one for as long as it likes, and a handful of them starve every other
 * tenant, the readiness probe and the mail worker of connections.
 */
export interface ConnectionBounds {
  /** PostgreSQL `statement_timeout` of every statement on the runtime pool. */
  statementTimeoutMs: number;
  /** PostgreSQL `lock_timeout`: the longest wait for any lock, advisory locks included. */
  lockTimeoutMs: number;
  /** PostgreSQL `idle_in_transaction_session_timeout`: a transaction left open without a statement. */
  idleInTransactionTimeoutMs: number;
  /**
   * The statement bound of the one transaction that writes a whole upload (an import's or a
   * payroll upload's phase 2: COPY into its staging table, the checks and INSERT … SELECT over
   * up to 25 MiB of rows), raised with SET LOCAL in that transaction alone.
   */
  bulkStatementTimeoutMs: number;
}

/** The defaults the environment schema gives (config.ts), measured in docs/decisions/0085. */
export const DEFAULT_CONNECTION_BOUNDS: ConnectionBounds = {
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 60_000,
  bulkStatementTimeoutMs: 300_000,
};

/**
 * The settings of `bounds` as one SELECT of set_config calls: session-wide (`local` false) when
 * a connection opens, transaction-local in front of every transaction. Whole milliseconds only,
 * written as literals: the prelude that carries them travels without parameters.
 */
export function boundsStatement(bounds: ConnectionBounds, local: boolean): string {
  const settings: [string, number][] = [
    ['statement_timeout', bounds.statementTimeoutMs],
    ['lock_timeout', bounds.lockTimeoutMs],
    ['idle_in_transaction_session_timeout', bounds.idleInTransactionTimeoutMs],
  ];
  return `select ${settings
    .map(([name, ms]) => `set_config('${name}', '${wholeMilliseconds(ms)}', ${local})`)
    .join(', ')}`;
}

export function wholeMilliseconds(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error('a bound must be whole milliseconds');
  return String(ms);
}

/** The work of a request whose client has gone is cancelled in the database; see queryCancelled. */
export class QueryCancelledError extends Error {
  override name = 'QueryCancelledError';
  constructor() {
    super('the request was cancelled: its client went away');
  }
}

const requestSignals = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` with `signal` as the signal of every database transaction it opens: when it aborts,
 * the statement in flight is cancelled on the server (postgres.ts) and no further statement is
 * sent. The HTTP layer gives each request the signal of its client going away (client-gone.ts),
 * so a dropped request no longer leaves its query running on a shared connection.
 */
export function withQuerySignal<T>(signal: AbortSignal, work: () => T): T {
  return requestSignals.run(signal, work);
}

/**
 * Runs `work` under no request's signal: the record of how an upload ended (failed, because its
 * client went away) is written whatever became of the client, as a job's would be.
 */
export function withoutQuerySignal<T>(work: () => T): T {
  return requestSignals.exit(work);
}

/** The signal of the work running now, if it runs under one. */
export function currentQuerySignal(): AbortSignal | undefined {
  return requestSignals.getStore();
}
