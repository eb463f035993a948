import { eq } from 'drizzle-orm';
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
