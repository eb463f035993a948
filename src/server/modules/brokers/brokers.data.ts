import { and, eq } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { brokers } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type BrokerRow = typeof brokers.$inferSelect;

/**
 * A broker firm by id, as far as row-level security lets this actor see, shaped for the reach
 * check: a firm is its own tenant and lies above every employer.
 */
export async function findBroker(
  tx: Transaction,
  id: string,
): Promise<(BrokerRow & { brokerId: string; employerId: null }) | undefined> {
  const [row] = await tx.select().from(brokers).where(eq(brokers.id, id));
  return row && { ...row, brokerId: row.id, employerId: null };
}

/** Inserts a broker firm and reads it back. */
export async function insertBroker(
  tx: Transaction,
  values: typeof brokers.$inferInsert,
): Promise<BrokerRow> {
  const [row] = await tx.insert(brokers).values(values).returning();
  return row as BrokerRow;
}

/** Reads one page of broker firms, in the order and from the position `page` gives. */
export async function listBrokers(
  tx: Transaction,
  page: ReturnType<typeof keyset>,
): Promise<BrokerRow[]> {
  return tx
    .select()
    .from(brokers)
    .where(and(page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Renames a broker firm, or sets its LEI, and reads it back. */
export async function updateBroker(
  tx: Transaction,
  id: string,
  change: { name: string; updatedAt: Date } | { lei: string | null; updatedAt: Date },
): Promise<BrokerRow> {
  const [row] = await tx.update(brokers).set(change).where(eq(brokers.id, id)).returning();
  return row as BrokerRow;
}
