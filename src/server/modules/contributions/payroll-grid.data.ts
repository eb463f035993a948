import { and, asc, count, countDistinct, desc, eq, inArray, isNull, lt, sum } from 'drizzle-orm';
import { contributionAdjustments, contributions, members } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { ContributionRow } from './contributions.data.js';
import { PAYROLL_ROWS_MAX } from './payroll-grid.schemas.js';

/** Reads the scheme's live members, by name, as many as a grid holds. */
export async function gridMembersOf(
  tx: Transaction,
  schemeId: string,
): Promise<
  {
    id: string;
    firstName: string;
    lastName: string;
    status: string;
    statusOn: string | null;
    salaryCents: number;
  }[]
> {
  return tx
    .select({
      id: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      status: members.status,
      statusOn: members.statusOn,
      salaryCents: members.salaryCents,
    })
    .from(members)
    .where(and(eq(members.schemeId, schemeId), isNull(members.deletedAt)))
    .orderBy(asc(members.lastName), asc(members.firstName), asc(members.id))
    .limit(PAYROLL_ROWS_MAX);
}

/** Reads every contribution recorded in the scheme for one pay period. */
export async function contributionsOfPeriod(
  tx: Transaction,
  schemeId: string,
  period: string,
): Promise<ContributionRow[]> {
  return tx
    .select()
    .from(contributions)
    .where(and(eq(contributions.schemeId, schemeId), eq(contributions.period, period)));
}

/** Inserts a contribution a saved grid records. */
export async function addContribution(
  tx: Transaction,
  values: typeof contributions.$inferInsert,
): Promise<void> {
  await tx.insert(contributions).values(values);
}

/** Inserts a correction a saved grid makes. */
export async function addAdjustment(
  tx: Transaction,
  values: typeof contributionAdjustments.$inferInsert,
): Promise<void> {
  await tx.insert(contributionAdjustments).values(values);
}

/** Reads the scheme's periods before `cursor`, newest first, with counts: `limit` + 1 of them. */
export async function recordedPeriods(
  tx: Transaction,
  schemeId: string,
  page: { limit: number; cursor?: string },
): Promise<{ period: string; memberCount: number; rows: number }[]> {
  return tx
    .select({
      period: contributions.period,
      memberCount: countDistinct(contributions.memberId),
      rows: count(),
    })
    .from(contributions)
    .where(
      and(
        eq(contributions.schemeId, schemeId),
        page.cursor === undefined ? undefined : lt(contributions.period, page.cursor),
      ),
    )
    .groupBy(contributions.period)
    .orderBy(desc(contributions.period))
    .limit(page.limit + 1);
}

/** Reads the sums of the amounts first recorded in the scheme, per period and kind. */
export async function originalSumsOf(
  tx: Transaction,
  schemeId: string,
  periods: string[],
): Promise<{ period: string; kind: string; cents: string | null }[]> {
  if (periods.length === 0) return [];
  return tx
    .select({
      period: contributions.period,
      kind: contributions.kind,
      cents: sum(contributions.amountCents),
    })
    .from(contributions)
    .where(and(eq(contributions.schemeId, schemeId), inArray(contributions.period, periods)))
    .groupBy(contributions.period, contributions.kind);
}

/** Reads the sums of the corrections of the scheme's contributions, per period and kind. */
export async function adjustmentSumsOf(
  tx: Transaction,
  schemeId: string,
  periods: string[],
): Promise<{ period: string; kind: string; cents: string | null }[]> {
  if (periods.length === 0) return [];
  return tx
    .select({
      period: contributions.period,
      kind: contributions.kind,
      cents: sum(contributionAdjustments.deltaCents),
    })
    .from(contributionAdjustments)
    .innerJoin(contributions, eq(contributions.id, contributionAdjustments.contributionId))
    .where(and(eq(contributions.schemeId, schemeId), inArray(contributions.period, periods)))
    .groupBy(contributions.period, contributions.kind);
}
