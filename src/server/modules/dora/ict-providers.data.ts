import { and, eq } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { ictProviders } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type IctProviderRow = typeof ictProviders.$inferSelect;

export async function insertProvider(
  tx: Transaction,
  values: typeof ictProviders.$inferInsert,
): Promise<IctProviderRow> {
  const [row] = await tx.insert(ictProviders).values(values).returning();
  return row as IctProviderRow;
}

/** A provider by id, as far as row-level security lets the actor see, its row locked. */
export async function lockProvider(
  tx: Transaction,
  id: string,
): Promise<(IctProviderRow & { employerId: null }) | undefined> {
  const [row] = await tx.select().from(ictProviders).where(eq(ictProviders.id, id)).for('update');
  return row && { ...row, employerId: null };
}

export async function updateProvider(
  tx: Transaction,
  provider: { brokerId: string; id: string },
  values: Partial<typeof ictProviders.$inferInsert>,
): Promise<IctProviderRow> {
  const [row] = await tx
    .update(ictProviders)
    .set(values)
    .where(and(eq(ictProviders.brokerId, provider.brokerId), eq(ictProviders.id, provider.id)))
    .returning();
  return row as IctProviderRow;
}

export async function listProviders(
  tx: Transaction,
  tenantId: string | null,
  page: ReturnType<typeof keyset>,
): Promise<IctProviderRow[]> {
  return tx
    .select()
    .from(ictProviders)
    .where(and(tenantId === null ? undefined : eq(ictProviders.brokerId, tenantId), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}
