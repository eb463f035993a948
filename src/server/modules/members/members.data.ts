import { and, eq, isNull } from 'drizzle-orm';
import { members } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';

export type MemberRow = typeof members.$inferSelect;

/**
 * A live (not deleted) member by id, as far as row-level security lets this actor see, shaped for
 * the reach check: a member record is its own member scope.
 */
export async function findMember(
  tx: Transaction,
  id: string,
): Promise<(MemberRow & { memberId: string }) | undefined> {
  const [row] = await tx
    .select()
    .from(members)
    .where(and(eq(members.id, id), isNull(members.deletedAt)));
  return row && { ...row, memberId: row.id };
}
