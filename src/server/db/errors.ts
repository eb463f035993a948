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

/** True when `error` (or anything in its cause chain) means the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof DatabaseTimeoutError) return true;
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
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
    current = cause;
  }
  return false;
}

/** True when `error` is a unique-constraint violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const details = current as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (details.code === '23505') {
      return (
        details.constraint === constraint ||
        (typeof details.message === 'string' && details.message.includes(constraint))
      );
    }
    current = details.cause;
  }
  return false;
}
