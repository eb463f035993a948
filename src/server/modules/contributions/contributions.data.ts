import { and, asc, desc, eq, getTableColumns, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import {
  CONTRIBUTION_KINDS,
  contributionKindRank,
  period as periodShape,
} from '../../../contracts/contributions.js';
import { preparedRead } from '../../platform/db/prepared.js';
import {
  contributionAdjustments,
  contributions,
  employers,
  members,
  schemes,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
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
 * A kind's place in `CONTRIBUTION_KINDS` as the database reads it (`contributionKindRank`, counted
 * from 0), so a list is ordered there as the pages and exports order it.
 */
const kindRank = sql<number>`(array_position(array[${sql.join(
  CONTRIBUTION_KINDS.map((kind) => sql`${kind}`),
  sql`, `,
)}]::text[], ${contributions.kind}) - 1)`;

/** `compareContributions`' order: newest pay period first, then who paid. */
const MEMBER_ORDER = [desc(contributions.period), asc(kindRank)];

/**
 * Where a page of a member's contributions ends: the pay period and kind of its last row, which a
 * member holds at most one of (contributions_member_period_kind_key).
 */
export interface MemberContributionPosition {
  period: string;
  kind: string;
}

export function encodeMemberCursor(position: MemberContributionPosition): string {
  return Buffer.from(JSON.stringify([position.period, position.kind])).toString('base64url');
}

function decodeMemberCursor(cursor: string): MemberContributionPosition {
  try {
    const [period, kind] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    if (
      periodShape.safeParse(period).success &&
      typeof kind === 'string' &&
      (CONTRIBUTION_KINDS as readonly string[]).includes(kind)
    ) {
      return { period: period as string, kind };
    }
  } catch {
    // answered below as a validation failure
  }
  throw new ValidationError([
    { path: 'cursor', code: 'invalid_cursor', message: 'Invalid cursor' },
  ]);
}

/** The rows after a page's last one, in `MEMBER_ORDER`. */
function afterPosition(cursor: string | undefined): SQL | undefined {
  if (cursor === undefined) return undefined;
  const position = decodeMemberCursor(cursor);
  const rank = contributionKindRank(position.kind);
  return sql`(${contributions.period} < ${position.period} or (${contributions.period} = ${position.period} and ${kindRank} > ${rank}))`;
}

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
    .orderBy(...MEMBER_ORDER);
  const adjustments = await adjustmentsOf(
    tx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => withAdjustments(row, adjustments));
}

/**
 * Reads a page of a member's contributions, within `periods` when given, in `compareContributions`'
 * order: one more row than `limit`, whose presence says a next page exists.
 */
export async function listContributionsOfMember(
  tx: Transaction,
  memberId: string,
  query: {
    from?: string | undefined;
    to?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  },
): Promise<ContributionRow[]> {
  return tx
    .select()
    .from(contributions)
    .where(
      and(
        eq(contributions.memberId, memberId),
        query.from === undefined ? undefined : gte(contributions.period, query.from),
        query.to === undefined ? undefined : lte(contributions.period, query.to),
        afterPosition(query.cursor),
      ),
    )
    .orderBy(...MEMBER_ORDER)
    .limit(query.limit + 1);
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
