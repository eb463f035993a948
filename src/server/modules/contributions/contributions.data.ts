import { asc, desc, eq, inArray } from 'drizzle-orm';
import { contributionAdjustments, contributions } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';

export type ContributionRow = typeof contributions.$inferSelect;
export type AdjustmentRow = typeof contributionAdjustments.$inferSelect;

export interface ContributionWithAdjustments extends ContributionRow {
  originalAmountCents: number;
  adjustments: AdjustmentRow[];
}

/** The amount as first recorded plus every correction since. */
export function withAdjustments(
  row: ContributionRow,
  adjustments: AdjustmentRow[],
): ContributionWithAdjustments {
  const own = adjustments.filter((adjustment) => adjustment.contributionId === row.id);
  return {
    ...row,
    originalAmountCents: row.amountCents,
    amountCents: own.reduce((total, adjustment) => total + adjustment.deltaCents, row.amountCents),
    adjustments: own,
  };
}

export async function adjustmentsOf(
  tx: Transaction,
  contributionIds: string[],
): Promise<AdjustmentRow[]> {
  if (contributionIds.length === 0) return [];
  return tx
    .select()
    .from(contributionAdjustments)
    .where(inArray(contributionAdjustments.contributionId, contributionIds))
    .orderBy(asc(contributionAdjustments.createdAt), asc(contributionAdjustments.id));
}

/** Every contribution of a member, newest period first, with its corrections. */
export async function contributionsOfMember(
  tx: Transaction,
  memberId: string,
): Promise<ContributionWithAdjustments[]> {
  const rows = await tx
    .select()
    .from(contributions)
    .where(eq(contributions.memberId, memberId))
    .orderBy(desc(contributions.period), asc(contributions.kind));
  const adjustments = await adjustmentsOf(
    tx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => withAdjustments(row, adjustments));
}
