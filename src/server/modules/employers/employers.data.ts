import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { keyset } from '../../platform/db/keyset.js';
import { preparedRead } from '../../platform/db/prepared.js';
import { employers, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type EmployerRow = typeof employers.$inferSelect;

/**
 * The join from a row to its employer, which finds it only while the employer is live. Soft delete
 * (docs/decisions/0038-soft-delete-reaches-beneath.md) hides a deleted employer and everything beneath it: every finder of a record
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

/** Inserts an employer and reads it back. */
export async function insertEmployer(
  tx: Transaction,
  values: typeof employers.$inferInsert,
): Promise<EmployerRow> {
  const [row] = await tx.insert(employers).values(values).returning();
  return row as EmployerRow;
}

/** Reads a page of live employers, only `employerId` when given, as `page` orders and starts it. */
export async function listEmployers(
  tx: Transaction,
  employerId: string | null,
  page: ReturnType<typeof keyset>,
): Promise<EmployerRow[]> {
  const ownEmployerOnly = employerId === null ? undefined : eq(employers.id, employerId);
  return tx
    .select()
    .from(employers)
    .where(and(isNull(employers.deletedAt), ownEmployerOnly, page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Writes a change to an employer (its name, its details) and reads it back. */
export async function updateEmployer(
  tx: Transaction,
  id: string,
  change: Partial<Omit<typeof employers.$inferInsert, 'id' | 'brokerId'>> & { updatedAt: Date },
): Promise<EmployerRow> {
  const [row] = await tx.update(employers).set(change).where(eq(employers.id, id)).returning();
  return row as EmployerRow;
}

/** Whether the employer has a live scheme (reads schemes). */
export async function hasLiveScheme(tx: Transaction, employerId: string): Promise<boolean> {
  const [liveScheme] = await tx
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.employerId, employerId), isNull(schemes.deletedAt)))
    .limit(1);
  return liveScheme !== undefined;
}

/** Marks an employer deleted at `at` (soft delete). */
export async function softDeleteEmployer(tx: Transaction, id: string, at: Date): Promise<void> {
  await tx.update(employers).set({ deletedAt: at, updatedAt: at }).where(eq(employers.id, id));
}
