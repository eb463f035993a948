import { getTableColumns } from 'drizzle-orm';
import type { IndexColumn, PgColumn, PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Transaction } from './with-actor.js';

/**
 * Rows per statement: a scheduled job can make tens of thousands of rows at once (a reminder for
 * every admin of every firm), and one statement of them all would pass PostgreSQL's 65,535
 * parameters a statement (and the query builder's stack) long before. A thousand rows of up to 65
 * columns stay under it.
 */
export const ROWS_PER_INSERT = 1_000;
const PARAMETERS_PER_STATEMENT = 65_535;

/**
 * Inserts `rows`, a statement of up to `ROWS_PER_INSERT` at a time, skipping each one that meets
 * a unique index (`target`, or any), and answers the ids of those that were new. It is how a job
 * does a thing once however often it runs: the reminder rows' unique keys say what was already
 * sent, and only what comes back new is sent now.
 */
export async function insertOnce<T extends PgTable & { id: PgColumn }>(
  tx: Transaction,
  table: T,
  rows: readonly PgInsertValue<T>[],
  target?: IndexColumn[],
): Promise<Set<string>> {
  const columns = Object.keys(getTableColumns(table)).length;
  const perStatement = Math.min(
    ROWS_PER_INSERT,
    Math.floor(PARAMETERS_PER_STATEMENT / Math.max(columns, 1)),
  );
  const fresh = new Set<string>();
  for (let start = 0; start < rows.length; start += perStatement) {
    const inserted = await tx
      .insert(table)
      .values(rows.slice(start, start + perStatement) as PgInsertValue<T>[])
      .onConflictDoNothing(target ? { target } : undefined)
      .returning({ id: table.id });
    for (const row of inserted as { id: unknown }[]) fresh.add(String(row.id));
  }
  return fresh;
}
