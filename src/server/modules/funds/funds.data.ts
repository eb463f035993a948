import { and, asc, desc, eq, getTableColumns, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { preparedRead } from '../../platform/db/prepared.js';
import {
  employers,
  fundAllocationLines,
  fundAllocations,
  funds,
  members,
  schemes,
  users,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveMemberOf } from '../members/index.js';
import { liveSchemeOf } from '../schemes/index.js';
import type { FundChange } from './funds.schemas.js';

export type FundRow = typeof funds.$inferSelect;
export type AllocationRow = typeof fundAllocations.$inferSelect;

/**
 * A fund by id, found only while its scheme and employer are live: the funds of a deleted scheme
 * can no longer be read or changed (docs/decisions/0038-soft-delete-reaches-beneath.md).
 */
export async function findFund(tx: Transaction, id: string): Promise<FundRow | undefined> {
  const [row] = await fundById(tx, { id });
  return row;
}

const fundById = preparedRead<{ id: string }, FundRow[]>('fund_by_id', (tx, name) =>
  tx
    .select(getTableColumns(funds))
    .from(funds)
    .innerJoin(schemes, liveSchemeOf(funds.schemeId))
    .innerJoin(employers, liveEmployerOf(funds.employerId))
    .where(eq(funds.id, sql.placeholder('id')))
    .prepare(name),
);

export interface AllocationWithLines extends AllocationRow {
  lines: Array<{ fundId: string; fundName: string; percent: number }>;
}

/** Fund choices of the given allocations, each with its funds and percentages. */
export async function withLines(
  tx: Transaction,
  allocations: AllocationRow[],
): Promise<AllocationWithLines[]> {
  if (allocations.length === 0) return [];
  const lines = await tx
    .select({
      allocationId: fundAllocationLines.allocationId,
      fundId: fundAllocationLines.fundId,
      fundName: funds.name,
      percent: fundAllocationLines.percent,
    })
    .from(fundAllocationLines)
    .innerJoin(funds, eq(funds.id, fundAllocationLines.fundId))
    .where(
      inArray(
        fundAllocationLines.allocationId,
        allocations.map((allocation) => allocation.id),
      ),
    )
    .orderBy(desc(fundAllocationLines.percent), asc(funds.name));
  return allocations.map((allocation) => ({
    ...allocation,
    lines: lines
      .filter((line) => line.allocationId === allocation.id)
      .map(({ fundId, fundName, percent }) => ({ fundId, fundName, percent })),
  }));
}

/**
 * A live member's whole fund-choice history, latest effective date first; none for a member that
 * is deleted or under a deleted scheme or employer.
 */
export async function allocationsOfMember(
  tx: Transaction,
  memberId: string,
): Promise<AllocationWithLines[]> {
  const allocations = await tx
    .select(getTableColumns(fundAllocations))
    .from(fundAllocations)
    .innerJoin(members, liveMemberOf(fundAllocations.memberId))
    .innerJoin(schemes, liveSchemeOf(fundAllocations.schemeId))
    .innerJoin(employers, liveEmployerOf(fundAllocations.employerId))
    .where(eq(fundAllocations.memberId, memberId))
    .orderBy(desc(fundAllocations.effectiveFrom), desc(fundAllocations.createdAt));
  return withLines(tx, allocations);
}

/** Reads a page of a scheme's funds (closed ones only when asked for), as `page` orders it. */
export async function listFundsOfScheme(
  tx: Transaction,
  schemeId: string,
  includeClosed: boolean | undefined,
  page: ReturnType<typeof keyset>,
): Promise<FundRow[]> {
  return tx
    .select()
    .from(funds)
    .where(
      and(
        eq(funds.schemeId, schemeId),
        includeClosed ? undefined : isNull(funds.closedAt),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Inserts a fund and reads it back. */
export async function insertFund(
  tx: Transaction,
  values: typeof funds.$inferInsert,
): Promise<FundRow> {
  const [row] = await tx.insert(funds).values(values).returning();
  return row as FundRow;
}

/** Writes a change to a fund and reads it back. */
export async function updateFund(
  tx: Transaction,
  id: string,
  change: Omit<FundChange, 'closed'> & { closedAt?: Date | null; updatedAt: Date },
): Promise<FundRow> {
  const [row] = await tx.update(funds).set(change).where(eq(funds.id, id)).returning();
  return row as FundRow;
}

/** Reads the choice in force on `day`: the latest effective date not after it, the latest made. */
export async function currentChoiceId(
  tx: Transaction,
  memberId: string,
  day: string,
): Promise<string | null> {
  const [row] = await tx
    .select({ id: fundAllocations.id })
    .from(fundAllocations)
    .where(and(eq(fundAllocations.memberId, memberId), lte(fundAllocations.effectiveFrom, day)))
    .orderBy(desc(fundAllocations.effectiveFrom), desc(fundAllocations.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/** Reads one page of a member's fund choices, in the order and from the position `page` gives. */
export async function listChoicesOfMember(
  tx: Transaction,
  memberId: string,
  page: ReturnType<typeof keyset>,
): Promise<AllocationRow[]> {
  return tx
    .select()
    .from(fundAllocations)
    .where(and(eq(fundAllocations.memberId, memberId), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Reads which of `fundIds` are open funds of the scheme. */
export async function openFundsAmong(
  tx: Transaction,
  schemeId: string,
  fundIds: string[],
): Promise<{ id: string }[]> {
  return tx
    .select({ id: funds.id })
    .from(funds)
    .where(and(eq(funds.schemeId, schemeId), isNull(funds.closedAt), inArray(funds.id, fundIds)));
}

/** Inserts a fund choice, without its lines, and reads it back. */
export async function insertAllocation(
  tx: Transaction,
  values: typeof fundAllocations.$inferInsert,
): Promise<AllocationRow> {
  const [row] = await tx.insert(fundAllocations).values(values).returning();
  return row as AllocationRow;
}

/** Inserts the lines of a fund choice: each fund and its percentage. */
export async function insertAllocationLines(
  tx: Transaction,
  lines: (typeof fundAllocationLines.$inferInsert)[],
): Promise<void> {
  await tx.insert(fundAllocationLines).values(lines);
}

/** Reads the active accounts of a member (reads users): who hears of a change to their choice. */
export async function activeAccountsOfMember(
  tx: Transaction,
  memberId: string,
): Promise<{ id: string; email: string }[]> {
  return tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.memberId, memberId), eq(users.status, 'active')));
}
