import { QueryCancelledError } from './connection-bounds.js';

/** Connection-level failures: the database is unreachable or going away, not a bad query. */
const UNAVAILABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /cannot use a pool after calling end/i,
  /client has encountered a connection error/i,
  /pglite is closed/i,
  /database unavailable/i,
];

export class DatabaseTimeoutError extends Error {
  override name = 'DatabaseTimeoutError';
  constructor() {
    super('database unavailable: no answer in time');
  }
}

/**
 * `error` and the errors it was caused by, outermost first: Drizzle wraps the driver's error, and a
 * service may wrap Drizzle's. Five deep at most, since nothing stops a cause chain from looping.
 */
export function* causeChain(error: unknown): Generator<Record<string, unknown>> {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * SQLSTATEs of a connection bound reached (docs/decisions/0085): `statement_timeout` and a
 * cancelled statement (57014, query_canceled), `lock_timeout` (55P03, lock_not_available) and
 * `idle_in_transaction_session_timeout` (25P03). Each means the database did not get the work
 * done in the time the service allows it, not that the request was wrong: answered as the
 * database being unavailable, 503, whatever the statement was.
 */
const BOUND_REACHED_SQLSTATES = new Set(['57014', '55P03', '25P03']);

/** True when `error` (or its cause chain) is a connection bound reached or a cancelled request. */
export function isDatabaseBoundReached(error: unknown): boolean {
  for (const current of causeChain(error)) {
    if (current instanceof QueryCancelledError) return true;
    const { code } = current;
    if (typeof code === 'string' && BOUND_REACHED_SQLSTATES.has(code)) return true;
  }
  return false;
}

/** True when `error` (or its cause chain) is the work of a request whose client went away. */
export function isRequestCancelled(error: unknown): boolean {
  for (const current of causeChain(error)) {
    if (current instanceof QueryCancelledError) return true;
  }
  return false;
}

/** True when `error` (or anything in its cause chain) means the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isDatabaseBoundReached(error)) return true;
  for (const current of causeChain(error)) {
    if (current instanceof DatabaseTimeoutError) return true;
    const { code, message } = current;
    if (typeof code === 'string') {
      if (UNAVAILABLE_NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
      if (code.startsWith('08')) return true; // SQLSTATE class 08: connection exception
    }
    if (
      typeof message === 'string' &&
      UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))
    ) {
      return true;
    }
  }
  return false;
}

/** True when `error` is a unique-constraint violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (const details of causeChain(error)) {
    if (details.code === '23505') {
      return (
        details.constraint === constraint ||
        (typeof details.message === 'string' && details.message.includes(constraint))
      );
    }
  }
  return false;
}

/**
 * SQLSTATEs after which a connection's named statements cannot be trusted (db/prepared.ts): a
 * statement planned before a column under it changed type fails on every later use on that
 * connection ("cached plan must not change result type", 0A000), and one the server no longer
 * holds is refused by name (26000). 0A000 also covers other features PostgreSQL does not
 * support; closing a connection over one of those costs a reconnect and nothing else.
 */
const STALE_STATEMENT_SQLSTATES = new Set(['0A000', '26000']);

/** True when `error` (or its cause chain) means the connection should be closed, not reused. */
export function spoilsPreparedStatements(error: unknown): boolean {
  for (const { code } of causeChain(error)) {
    if (typeof code === 'string' && STALE_STATEMENT_SQLSTATES.has(code)) return true;
  }
  return false;
}

/**
 * Properties that only database errors carry: node-postgres and PGlite errors (`detail`, `where`,
 * `hint`, `internalQuery`, `severity`, `routine`; PGlite also `query` and `params`) and Drizzle's
 * wrapper (`query`, `params`). Each of them, and the message, can quote the values of a row:
 * names, addresses, e-mail addresses, salaries, password hashes (docs/decisions/0035-control-characters-and-database-errors.md).
 */
const DATABASE_ERROR_KEYS = [
  'query',
  'params',
  'detail',
  'where',
  'hint',
  'internalQuery',
  'severity',
  'routine',
] as const;

const SQLSTATE_SHAPE = /^[0-9A-Z]{5}$/;
/** PostgreSQL identifiers, as a constraint or table name is reported. */
const IDENTIFIER_SHAPE = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** True when `error` itself (not its causes) came from the database driver or the ORM. */
export function isDatabaseErrorItself(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  if ((error as { name?: unknown }).name === 'DrizzleQueryError') return true;
  return DATABASE_ERROR_KEYS.some((key) => Object.hasOwn(error, key));
}

/** What may be logged of a database error: the SQLSTATE, and the constraint and table it names. */
export interface DatabaseErrorSummary {
  sqlState: string | null;
  constraint: string | null;
  table: string | null;
}

/**
 * The loggable facts of the first database error in `error`'s cause chain, or null when there is
 * none. Only values of the shapes PostgreSQL gives them are taken: nothing free-form.
 */
export function databaseErrorSummary(error: unknown): DatabaseErrorSummary | null {
  let found = false;
  for (const current of causeChain(error)) {
    if (isDatabaseErrorItself(current)) {
      found = true;
      const { code, constraint, table } = current;
      if (typeof code === 'string' && SQLSTATE_SHAPE.test(code)) {
        const identifier = (value: unknown) =>
          typeof value === 'string' && IDENTIFIER_SHAPE.test(value) ? value : null;
        return { sqlState: code, constraint: identifier(constraint), table: identifier(table) };
      }
    }
  }
  return found ? { sqlState: null, constraint: null, table: null } : null;
}
