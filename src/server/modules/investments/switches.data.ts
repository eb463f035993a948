import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { fundSwitches, funds } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type SwitchRow = typeof fundSwitches.$inferSelect;

/** The member's pending switch, if any. */
export async function pendingSwitchOf(
  tx: Transaction,
  member: { brokerId: string; id: string },
): Promise<SwitchRow | undefined> {
  const [row] = await tx
    .select()
    .from(fundSwitches)
    .where(
      and(
        eq(fundSwitches.brokerId, member.brokerId),
        eq(fundSwitches.memberId, member.id),
        eq(fundSwitches.status, 'pending'),
      ),
    );
  return row;
}

/** Inserts a switch and reads it back. */
export async function insertSwitch(
  tx: Transaction,
  values: typeof fundSwitches.$inferInsert,
): Promise<SwitchRow> {
  const [row] = await tx.insert(fundSwitches).values(values).returning();
  return row as SwitchRow;
}

/** A page of the member's switches, as `page` orders it. */
export async function switchesOfMember(
  tx: Transaction,
  member: { brokerId: string; id: string },
  page: ReturnType<typeof keyset>,
): Promise<SwitchRow[]> {
  return tx
    .select()
    .from(fundSwitches)
    .where(
      and(
        eq(fundSwitches.brokerId, member.brokerId),
        eq(fundSwitches.memberId, member.id),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Which of `fundIds` are open funds of the scheme, with their names. */
export async function openFundsOf(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  fundIds: readonly string[],
): Promise<Map<string, string>> {
  if (fundIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: funds.id, name: funds.name })
    .from(funds)
    .where(
      and(
        eq(funds.brokerId, scheme.brokerId),
        eq(funds.schemeId, scheme.id),
        isNull(funds.closedAt),
        inArray(funds.id, [...fundIds]),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.name]));
}
