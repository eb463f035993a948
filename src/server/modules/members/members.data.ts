import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { preparedRead } from '../../platform/db/prepared.js';
import { employers, members, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveSchemeOf } from '../schemes/index.js';

export type MemberRow = typeof members.$inferSelect;

/**
 * The join from a row to its member, which finds it only while the member is live. Rows of a
 * member (contributions, fund choices) join this, `liveSchemeOf` and `liveEmployerOf`.
 */
export const liveMemberOf = (memberId: AnyPgColumn) =>
  and(eq(members.id, memberId), isNull(members.deletedAt));

/**
 * A live member by id, as far as row-level security lets this actor see, shaped for the reach
 * check: a member record is its own member scope. A member whose scheme or employer is deleted
 * reads as deleted itself (decisions.md §3), for every route that names it: reading, changing,
 * deleting, revealing the PPS number, exporting, and everything recorded under the member.
 */
export async function findMember(
  tx: Transaction,
  id: string,
): Promise<(MemberRow & { memberId: string }) | undefined> {
  const [row] = await memberById(tx, { id });
  return row && { ...row, memberId: row.id };
}

const memberById = preparedRead<{ id: string }, MemberRow[]>('member_by_id', (tx, name) =>
  tx
    .select(getTableColumns(members))
    .from(members)
    .innerJoin(schemes, liveSchemeOf(members.schemeId))
    .innerJoin(employers, liveEmployerOf(members.employerId))
    .where(and(eq(members.id, sql.placeholder('id')), isNull(members.deletedAt)))
    .prepare(name),
);
