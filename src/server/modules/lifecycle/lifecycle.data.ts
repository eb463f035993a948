import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rowsOf } from '../../platform/db/database.js';
import {
  brokers,
  contributionAdjustments,
  contributions,
  employers,
  memberDependants,
  memberPayouts,
  memberStatusChanges,
  members,
  memberTransactions,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/** The tables of a member's lifecycle (docs/decisions/0135-members-lifecycle.md), read and written. */

export type StatusChangeRow = typeof memberStatusChanges.$inferSelect;
export type PayoutRow = typeof memberPayouts.$inferSelect;
export type DependantRow = typeof memberDependants.$inferSelect;

export interface MemberKey {
  brokerId: string;
  id: string;
}

export async function changesOf(tx: Transaction, member: MemberKey): Promise<StatusChangeRow[]> {
  return (
    tx
      .select()
      .from(memberStatusChanges)
      .where(
        and(
          eq(memberStatusChanges.brokerId, member.brokerId),
          eq(memberStatusChanges.memberId, member.id),
        ),
      )
      // Changes in force follow each other day by day (each on or after the one before), so the
      // day orders changes recorded in the same instant.
      .orderBy(
        asc(memberStatusChanges.createdAt),
        asc(memberStatusChanges.effectiveOn),
        asc(memberStatusChanges.id),
      )
  );
}

export async function payoutsOf(tx: Transaction, member: MemberKey): Promise<PayoutRow[]> {
  return tx
    .select()
    .from(memberPayouts)
    .where(and(eq(memberPayouts.brokerId, member.brokerId), eq(memberPayouts.memberId, member.id)))
    .orderBy(asc(memberPayouts.createdAt), asc(memberPayouts.id));
}

export async function dependantsOf(tx: Transaction, member: MemberKey): Promise<DependantRow[]> {
  return tx
    .select()
    .from(memberDependants)
    .where(
      and(eq(memberDependants.brokerId, member.brokerId), eq(memberDependants.memberId, member.id)),
    )
    .orderBy(asc(memberDependants.createdAt), asc(memberDependants.id));
}

export async function insertChange(
  tx: Transaction,
  values: typeof memberStatusChanges.$inferInsert,
): Promise<StatusChangeRow> {
  const [row] = await tx.insert(memberStatusChanges).values(values).returning();
  return row as StatusChangeRow;
}

export async function insertPayout(
  tx: Transaction,
  values: typeof memberPayouts.$inferInsert,
): Promise<PayoutRow> {
  const [row] = await tx.insert(memberPayouts).values(values).returning();
  return row as PayoutRow;
}

export async function insertDependants(
  tx: Transaction,
  rows: Array<typeof memberDependants.$inferInsert>,
): Promise<void> {
  if (rows.length > 0) await tx.insert(memberDependants).values(rows);
}

/** The member's status and its day, as a change leaves it. */
export async function setStatus(
  tx: Transaction,
  member: MemberKey,
  status: string,
  statusOn: string | null,
  at: Date,
): Promise<void> {
  await tx
    .update(members)
    .set({ status, statusOn, updatedAt: at })
    .where(and(eq(members.brokerId, member.brokerId), eq(members.id, member.id)));
}

export async function voidPayout(
  tx: Transaction,
  payout: { brokerId: string; id: string },
  at: Date,
): Promise<void> {
  await tx
    .update(memberPayouts)
    .set({ voidedAt: at, updatedAt: at })
    .where(and(eq(memberPayouts.brokerId, payout.brokerId), eq(memberPayouts.id, payout.id)));
}

/** Whether any of the payout's units were sold (movements not voided). */
export async function payoutHasSales(
  tx: Transaction,
  payout: { brokerId: string; memberId: string; id: string },
): Promise<boolean> {
  const rows = await tx
    .select({ id: memberTransactions.id })
    .from(memberTransactions)
    .where(
      and(
        eq(memberTransactions.brokerId, payout.brokerId),
        eq(memberTransactions.memberId, payout.memberId),
        eq(memberTransactions.source, `payout:${payout.id}`),
        isNull(memberTransactions.voidedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Cancels the member's pending switches that have sold nothing yet; one already dealing finishes
 * (docs/decisions/0135-members-lifecycle.md). Answers how many were cancelled.
 */
export async function cancelUndealtSwitches(
  tx: Transaction,
  member: MemberKey,
  at: Date,
): Promise<number> {
  const result = await tx.execute(sql`
    update fund_switches s set status = 'cancelled', updated_at = ${at.toISOString()} :: timestamptz
    where s.broker_id = ${member.brokerId} and s.member_id = ${member.id} and s.status = 'pending'
      and not exists (
        select 1 from member_transactions t
        where t.broker_id = s.broker_id and t.member_id = s.member_id
          and t.source = 'switch:' || s.id and t.voided_at is null
      )
    returning s.id
  `);
  return rowsOf<{ id: string }>(result).length;
}

/**
 * The member's own contributions (employee and AVC, with their corrections) of the pay periods
 * from `fromPeriod` on (all when null): what a refund returns.
 */
export async function ownContributionsCents(
  tx: Transaction,
  member: MemberKey,
  fromPeriod: string | null,
): Promise<number> {
  const own = and(
    eq(contributions.brokerId, member.brokerId),
    eq(contributions.memberId, member.id),
    inArray(contributions.kind, ['employee', 'avc']),
    fromPeriod === null ? undefined : sql`${contributions.period} >= ${fromPeriod}`,
  );
  const [paid] = await tx
    .select({ cents: sql<string | null>`sum(${contributions.amountCents})` })
    .from(contributions)
    .where(own);
  const [corrected] = await tx
    .select({ cents: sql<string | null>`sum(${contributionAdjustments.deltaCents})` })
    .from(contributionAdjustments)
    .innerJoin(
      contributions,
      and(
        eq(contributions.brokerId, contributionAdjustments.brokerId),
        eq(contributions.id, contributionAdjustments.contributionId),
      ),
    )
    .where(own);
  return Number(paid?.cents ?? 0) + Number(corrected?.cents ?? 0);
}

/** The latest pay period with a contribution for the member, or null. */
export async function lastContributionPeriod(
  tx: Transaction,
  member: MemberKey,
): Promise<string | null> {
  const [row] = await tx
    .select({ period: sql<string | null>`max(${contributions.period})` })
    .from(contributions)
    .where(and(eq(contributions.brokerId, member.brokerId), eq(contributions.memberId, member.id)));
  return row?.period ?? null;
}

/** The names of the member's firm and employer, as a statement to the member gives them. */
export async function namesAround(
  tx: Transaction,
  member: { brokerId: string; employerId: string },
): Promise<{ firm: string; employer: string }> {
  const [row] = await tx
    .select({ firm: brokers.name, employer: employers.name })
    .from(employers)
    .innerJoin(brokers, eq(brokers.id, employers.brokerId))
    .where(and(eq(employers.brokerId, member.brokerId), eq(employers.id, member.employerId)));
  if (!row) throw new Error('a live member of no employer');
  return row;
}
