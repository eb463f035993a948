import { and, asc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import type { RetentionFacts } from '../../../contracts/retention-rules.js';
import { rowsOf } from '../../platform/db/database.js';
import {
  contributions,
  erasures,
  memberPayouts,
  memberRestrictions,
  members,
  memberTransactions,
  schemes,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/**
 * The reads and writes of retention, restriction and erasure
 * (docs/decisions/0149-retention-and-erasure.md). Rows leave the member's tables only through the
 * database's erasure functions (migrations/0045_erasure_and_retention.sql).
 */

export type ErasureRow = typeof erasures.$inferSelect;
export type RestrictionRow = typeof memberRestrictions.$inferSelect;

/** What the schedule needs of one member of the caller's tenant, deleted members included. */
export async function retentionFactsOf(
  tx: Transaction,
  memberId: string,
): Promise<RetentionFacts | undefined> {
  const [member] = await tx
    .select({ status: members.status, statusOn: members.statusOn, schemeType: schemes.type })
    .from(members)
    .innerJoin(
      schemes,
      and(eq(schemes.brokerId, members.brokerId), eq(schemes.id, members.schemeId)),
    )
    .where(eq(members.id, memberId));
  if (!member) return undefined;
  const payouts = await tx
    .select({ status: memberPayouts.status, paidOn: memberPayouts.paidOn })
    .from(memberPayouts)
    .where(and(eq(memberPayouts.memberId, memberId), isNull(memberPayouts.voidedAt)));
  const [dealt] = await tx
    .select({ on: max(memberTransactions.dealtOn) })
    .from(memberTransactions)
    .where(eq(memberTransactions.memberId, memberId));
  const [received] = await tx
    .select({ on: max(contributions.receivedOn) })
    .from(contributions)
    .where(eq(contributions.memberId, memberId));
  const days = [dealt?.on ?? null, received?.on ?? null].filter((day) => day !== null);
  return {
    status: member.status as RetentionFacts['status'],
    schemeType: member.schemeType as RetentionFacts['schemeType'],
    statusOn: member.statusOn,
    payouts: payouts.map((payout) => ({
      status: payout.status as 'pending' | 'paid',
      paidOn: payout.paidOn,
    })),
    lastTransactionOn: days.length === 0 ? null : (days.sort().at(-1) ?? null),
  };
}

/** Members of the caller's tenant whose every benefit may have been paid: the job's candidates. */
export async function leaversOfTenant(tx: Transaction): Promise<{ id: string }[]> {
  return tx
    .select({ id: members.id })
    .from(members)
    .where(inArray(members.status, ['retired', 'transferred_out', 'refunded', 'deceased']))
    .orderBy(asc(members.id));
}

export async function restrictionInForce(
  tx: Transaction,
  memberId: string,
  options: { forUpdate?: boolean } = {},
): Promise<RestrictionRow | undefined> {
  const query = tx
    .select()
    .from(memberRestrictions)
    .where(and(eq(memberRestrictions.memberId, memberId), isNull(memberRestrictions.liftedOn)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertRestriction(
  tx: Transaction,
  row: typeof memberRestrictions.$inferInsert,
): Promise<RestrictionRow> {
  const [inserted] = await tx.insert(memberRestrictions).values(row).returning();
  if (!inserted) throw new Error('restriction insert returned no row');
  return inserted;
}

export async function liftRestriction(
  tx: Transaction,
  row: RestrictionRow,
  lifted: { liftedOn: string; liftedBy: string; at: Date },
): Promise<void> {
  await tx
    .update(memberRestrictions)
    .set({ liftedOn: lifted.liftedOn, liftedBy: lifted.liftedBy, updatedAt: lifted.at })
    .where(and(eq(memberRestrictions.brokerId, row.brokerId), eq(memberRestrictions.id, row.id)));
}

export async function erasuresOfMember(tx: Transaction, memberId: string): Promise<ErasureRow[]> {
  return tx
    .select()
    .from(erasures)
    .where(eq(erasures.memberId, memberId))
    .orderBy(asc(erasures.erasedAt), asc(erasures.id));
}

export async function erasureById(tx: Transaction, id: string): Promise<ErasureRow | undefined> {
  const [row] = await tx.select().from(erasures).where(eq(erasures.id, id));
  return row;
}

/** The ids of every erasure of the caller's tenant. */
export async function erasureIdsOfTenant(tx: Transaction): Promise<string[]> {
  const rows = await tx.select({ id: erasures.id }).from(erasures);
  return rows.map((row) => row.id);
}

export async function insertErasure(
  tx: Transaction,
  row: typeof erasures.$inferInsert,
): Promise<void> {
  await tx.insert(erasures).values(row);
}

/** The member's whole record, through the one function that deletes it; its documents' keys. */
export async function eraseMemberRows(tx: Transaction, memberId: string): Promise<string[]> {
  const result = await tx.execute(sql`select erase_member(${memberId}) as key`);
  return rowsOf<{ key: string }>(result).map((row) => row.key);
}

/** The member's contact details and sign-in account, through the database's function. */
export async function eraseMemberContacts(tx: Transaction, memberId: string): Promise<void> {
  await tx.execute(sql`select erase_member_contacts(${memberId})`);
}
