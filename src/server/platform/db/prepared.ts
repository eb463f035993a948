import type { Transaction } from './database.js';

const names = new Set<string>();

/** What Drizzle's `.prepare(name)` answers: a query built once, run with named values. */
interface PreparedQuery<Result> {
  execute(values: Record<string, unknown>): Promise<Result>;
}

/**
 * A read the request path runs on almost every request, built by Drizzle once per pooled
 * connection rather than once per call (docs/decisions/0061-prepared-by-id-finders.md: building a
 * query's SQL from its builder cost about as much CPU as the rest of a one-row read). `build` makes
 * the query with `sql.placeholder(...)` for every value; on a PostgreSQL server the statement is
 * also prepared by its `name`, once per connection, so the server skips parsing and planning it.
 *
 * On a server the query builder handed to a transaction belongs to its pooled connection and is
 * the same object every time (postgres.ts), so the cache below lives as long as the connection.
 * PGlite hands a new one to each transaction: there the query is built per transaction, as any
 * other query is, and forgotten with it.
 *
 * Values still travel bound, never in the statement's text, and row-level security filters a
 * prepared statement as it does any other: PostgreSQL plans it again when the role it runs as
 * changes, and the tenant is read from the transaction's setting when it runs.
 */
export function preparedRead<Values extends Record<string, unknown>, Result>(
  name: string,
  build: (tx: Transaction, name: string) => PreparedQuery<Result>,
): (tx: Transaction, values: Values) => Promise<Result> {
  // A connection holds one statement per name: a second text under a name taken would fail every
  // request that used it, so it fails here, when the module loads.
  if (names.has(name)) throw new Error(`a prepared read named ${name} exists already`);
  names.add(name);
  const built = new WeakMap<Transaction, PreparedQuery<Result>>();
  return (tx, values) => {
    let query = built.get(tx);
    if (!query) {
      query = build(tx, name);
      built.set(tx, query);
    }
    return query.execute(values);
  };
}
