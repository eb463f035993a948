import { and, eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { filings, trusteeTrainings } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type FilingRow = typeof filings.$inferSelect;
export type TrusteeTrainingRow = typeof trusteeTrainings.$inferSelect;

/** Inserts a trustee's training and answers it as stored. */
export async function insertTrainingRow(
  tx: Transaction,
  values: typeof trusteeTrainings.$inferInsert,
): Promise<TrusteeTrainingRow> {
  const [row] = await tx.insert(trusteeTrainings).values(values).returning();
  return row as TrusteeTrainingRow;
}

/** Inserts a filing and answers it as stored. */
export async function insertFilingRow(
  tx: Transaction,
  values: typeof filings.$inferInsert,
): Promise<FilingRow> {
  const [row] = await tx.insert(filings).values(values).returning();
  return row as FilingRow;
}

/** Writes a change to one filing; answers it as stored. */
export async function updateFilingRow(
  tx: Transaction,
  entry: { brokerId: string; id: string },
  set: PgUpdateSetSource<typeof filings>,
): Promise<FilingRow> {
  const [row] = await tx
    .update(filings)
    .set(set)
    .where(and(eq(filings.brokerId, entry.brokerId), eq(filings.id, entry.id)))
    .returning();
  return row as FilingRow;
}
