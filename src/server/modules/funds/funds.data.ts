import { asc, desc, eq, inArray } from 'drizzle-orm';
import { fundAllocationLines, fundAllocations, funds } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';

export type AllocationRow = typeof fundAllocations.$inferSelect;

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

/** A member's whole fund-choice history, latest effective date first. */
export async function allocationsOfMember(
  tx: Transaction,
  memberId: string,
): Promise<AllocationWithLines[]> {
  const allocations = await tx
    .select()
    .from(fundAllocations)
    .where(eq(fundAllocations.memberId, memberId))
    .orderBy(desc(fundAllocations.effectiveFrom), desc(fundAllocations.createdAt));
  return withLines(tx, allocations);
}
