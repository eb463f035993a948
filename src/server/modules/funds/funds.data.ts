import { asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { preparedRead } from '../../platform/db/prepared.js';
import {
  employers,
  fundAllocationLines,
  fundAllocations,
  funds,
  members,
  schemes,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveMemberOf } from '../members/index.js';
import { liveSchemeOf } from '../schemes/index.js';

export type FundRow = typeof funds.$inferSelect;
export type AllocationRow = typeof fundAllocations.$inferSelect;

/**
 * A fund by id, found only while its scheme and employer are live: the funds of a deleted scheme
 * can no longer be read or changed (decisions.md §3).
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
