import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { preparedRead } from '../../platform/db/prepared.js';
import { employers, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';

export type SchemeRow = typeof schemes.$inferSelect;

/**
 * The join from a row to its scheme, which finds it only while the scheme is live. A row under a
 * scheme joins this and `liveEmployerOf` as well, so that it is found only while neither ancestor
 * is deleted (decisions.md §3).
 */
export const liveSchemeOf = (schemeId: AnyPgColumn) =>
  and(eq(schemes.id, schemeId), isNull(schemes.deletedAt));

/**
 * A live scheme of a live employer, by id, as far as row-level security lets this actor see. A
 * scheme whose employer is deleted reads as deleted itself: an employer with live schemes cannot
 * be deleted, but a scheme created while its employer was being deleted can still end up there.
 */
export async function findScheme(tx: Transaction, id: string): Promise<SchemeRow | undefined> {
  const [row] = await schemeById(tx, { id });
  return row;
}

const schemeById = preparedRead<{ id: string }, SchemeRow[]>('scheme_by_id', (tx, name) =>
  tx
    .select(getTableColumns(schemes))
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(eq(schemes.id, sql.placeholder('id')), isNull(schemes.deletedAt)))
    .prepare(name),
);
