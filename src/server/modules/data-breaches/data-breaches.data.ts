import { and, eq } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { dataBreaches } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type DataBreachRow = typeof dataBreaches.$inferSelect;

/** Inserts a breach and reads it back. */
export async function insertBreach(
  tx: Transaction,
  values: typeof dataBreaches.$inferInsert,
): Promise<DataBreachRow> {
  const [row] = await tx.insert(dataBreaches).values(values).returning();
  return row as DataBreachRow;
}

/** A breach is the firm's, under no employer: its scope as the policy table reads one. */
export type ScopedBreach = DataBreachRow & { employerId: null };

/**
 * A breach by id, as far as row-level security lets the actor see; with `forUpdate`, its row
 * locked until the transaction ends, so two steps on one breach queue
 * (docs/decisions/0091-state-changes-lock-their-row.md).
 */
export async function findBreach(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<ScopedBreach | undefined> {
  const query = tx.select().from(dataBreaches).where(eq(dataBreaches.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row && { ...row, employerId: null };
}

/** Writes the changed fields of a breach and reads it back. */
export async function updateBreach(
  tx: Transaction,
  breach: { brokerId: string; id: string },
  values: Partial<typeof dataBreaches.$inferInsert>,
): Promise<DataBreachRow> {
  const [row] = await tx
    .update(dataBreaches)
    .set(values)
    .where(and(eq(dataBreaches.brokerId, breach.brokerId), eq(dataBreaches.id, breach.id)))
    .returning();
  return row as DataBreachRow;
}

/** A page of breaches within the actor's reach (row-level security), as `page` orders it. */
export async function listBreaches(
  tx: Transaction,
  tenantId: string | null,
  page: ReturnType<typeof keyset>,
): Promise<DataBreachRow[]> {
  return tx
    .select()
    .from(dataBreaches)
    .where(and(tenantId === null ? undefined : eq(dataBreaches.brokerId, tenantId), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}
