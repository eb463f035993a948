import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { preparedRead } from '../../platform/db/prepared.js';
import { employers } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type EmployerRow = typeof employers.$inferSelect;

/**
 * The join from a row to its employer, which finds it only while the employer is live. Soft delete
 * (decisions.md §3) hides a deleted employer and everything beneath it: every finder of a record
 * under an employer joins through here, so that a deleted employer answers exactly as a deleted
 * record does, whichever route names the record.
 */
export const liveEmployerOf = (employerId: AnyPgColumn) =>
  and(eq(employers.id, employerId), isNull(employers.deletedAt));

/** A live (not deleted) employer by id, as far as row-level security lets this actor see. */
export async function findEmployer(
  tx: Transaction,
  id: string,
): Promise<(EmployerRow & { employerId: string }) | undefined> {
  const [row] = await employerById(tx, { id });
  // The row as the reach check sees it: an employer is its own employer scope.
  return row && { ...row, employerId: row.id };
}

const employerById = preparedRead<{ id: string }, EmployerRow[]>('employer_by_id', (tx, name) =>
  tx
    .select()
    .from(employers)
    .where(and(eq(employers.id, sql.placeholder('id')), isNull(employers.deletedAt)))
    .prepare(name),
);
