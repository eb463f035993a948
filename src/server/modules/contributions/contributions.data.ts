import { and, asc, desc, eq, getTableColumns, gte, inArray, lte, sql } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { preparedRead } from '../../platform/db/prepared.js';
import {
  contributionAdjustments,
  contributions,
  employers,
  members,
  schemes,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveMemberOf } from '../members/index.js';
import { liveSchemeOf } from '../schemes/index.js';

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

/**
 * A contribution by id, found only while its member, scheme and employer are all live: one under a
 * deleted ancestor reads, and refuses corrections, as if it did not exist
 * (docs/decisions/0038-soft-delete-reaches-beneath.md).
 */
export async function findContribution(
  tx: Transaction,
  id: string,
): Promise<ContributionRow | undefined> {
  const [row] = await contributionById(tx, { id });
  return row;
}

const contributionById = preparedRead<{ id: string }, ContributionRow[]>(
  'contribution_by_id',
  (tx, name) =>
    tx
      .select(getTableColumns(contributions))
      .from(contributions)
      .innerJoin(members, liveMemberOf(contributions.memberId))
      .innerJoin(schemes, liveSchemeOf(contributions.schemeId))
      .innerJoin(employers, liveEmployerOf(contributions.employerId))
      .where(eq(contributions.id, sql.placeholder('id')))
      .prepare(name),
);

/**
 * Every contribution of a live member (under a live scheme and employer), newest period first,
 * with its corrections; none for a member that is deleted or under a deleted ancestor.
 */
export async function contributionsOfMember(
  tx: Transaction,
  memberId: string,
): Promise<ContributionWithAdjustments[]> {
  const rows = await tx
    .select(getTableColumns(contributions))
    .from(contributions)
    .innerJoin(members, liveMemberOf(contributions.memberId))
    .innerJoin(schemes, liveSchemeOf(contributions.schemeId))
    .innerJoin(employers, liveEmployerOf(contributions.employerId))
    .where(eq(contributions.memberId, memberId))
    .orderBy(desc(contributions.period), asc(contributions.kind));
  const adjustments = await adjustmentsOf(
    tx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => withAdjustments(row, adjustments));
}

/** Reads a page of a member's contributions, within `periods` when given, as `page` orders it. */
export async function listContributionsOfMember(
  tx: Transaction,
  memberId: string,
  periods: { from?: string | undefined; to?: string | undefined },
  page: ReturnType<typeof keyset>,
): Promise<ContributionRow[]> {
  return tx
    .select()
    .from(contributions)
    .where(
      and(
        eq(contributions.memberId, memberId),
        periods.from === undefined ? undefined : gte(contributions.period, periods.from),
        periods.to === undefined ? undefined : lte(contributions.period, periods.to),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Inserts a contribution and reads it back. */
export async function insertContribution(
  tx: Transaction,
  values: typeof contributions.$inferInsert,
): Promise<ContributionRow> {
  const [row] = await tx.insert(contributions).values(values).returning();
  return row as ContributionRow;
}

/** Namespace of the per-contribution lock that serialises its corrections. */
const ADJUSTMENT_LOCK_NAMESPACE = 7_201_192;

/** Takes the transaction lock serialising one contribution's corrections, single or by grid. */
export async function lockAdjustmentsOf(tx: Transaction, contributionId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${ADJUSTMENT_LOCK_NAMESPACE}, hashtext(${contributionId}))`,
  );
}

/** Inserts a correction of a contribution and reads it back. */
export async function insertAdjustment(
  tx: Transaction,
  values: typeof contributionAdjustments.$inferInsert,
): Promise<AdjustmentRow> {
  const [row] = await tx.insert(contributionAdjustments).values(values).returning();
  return row as AdjustmentRow;
}
