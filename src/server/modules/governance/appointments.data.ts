import { and, eq, gt, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { keyFunctionHolders, trustees } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { KeyFunctionHolderRow, TrusteeRow } from './governance.data.js';
import type { RegisterListQuery } from './governance.schemas.js';

export type NewTrusteeRow = typeof trustees.$inferInsert;
export type NewKeyFunctionHolderRow = typeof keyFunctionHolders.$inferInsert;

/** An entry that still serves on `today` unless the list asks for history too. */
export const servingUnlessHistory = (
  table: typeof trustees | typeof keyFunctionHolders,
  query: RegisterListQuery,
  today: string,
): SQL | undefined =>
  query.includeHistory ? undefined : or(isNull(table.endedOn), gt(table.endedOn, today));

/** Writes a new trustee row; answers it as stored. */
export async function insertTrusteeRow(
  tx: Transaction,
  values: NewTrusteeRow,
): Promise<TrusteeRow> {
  const [row] = await tx.insert(trustees).values(values).returning();
  return row as TrusteeRow;
}

/** Writes a change to one trustee row; answers it as stored. */
export async function updateTrusteeRow(
  tx: Transaction,
  entry: { brokerId: string; id: string },
  set: PgUpdateSetSource<typeof trustees>,
): Promise<TrusteeRow> {
  const [row] = await tx
    .update(trustees)
    .set(set)
    .where(and(eq(trustees.brokerId, entry.brokerId), eq(trustees.id, entry.id)))
    .returning();
  return row as TrusteeRow;
}

/**
 * The trustee named chair of a scheme's board other than `exceptId`, its row locked until the
 * transaction ends; at most one, which the database's one-chair index keeps so.
 */
export async function chairOfSchemeForUpdate(
  tx: Transaction,
  scheme: { brokerId: string; schemeId: string },
  exceptId: string | null,
): Promise<TrusteeRow | undefined> {
  const [row] = await tx
    .select()
    .from(trustees)
    .where(
      and(
        eq(trustees.brokerId, scheme.brokerId),
        eq(trustees.schemeId, scheme.schemeId),
        eq(trustees.chair, true),
        isNull(trustees.deletedAt),
        exceptId === null ? undefined : ne(trustees.id, exceptId),
      ),
    )
    .for('update');
  return row;
}

/** Reads every live key function appointment of a scheme, ended ones too, for Art. 24's check. */
export async function keyFunctionAppointmentsOf(
  tx: Transaction,
  scheme: { brokerId: string; schemeId: string },
) {
  const rows = await tx
    .select({
      id: keyFunctionHolders.id,
      function: keyFunctionHolders.function,
      holderName: keyFunctionHolders.holderName,
      appointedOn: keyFunctionHolders.appointedOn,
      endedOn: keyFunctionHolders.endedOn,
    })
    .from(keyFunctionHolders)
    .where(
      and(
        eq(keyFunctionHolders.brokerId, scheme.brokerId),
        eq(keyFunctionHolders.schemeId, scheme.schemeId),
        isNull(keyFunctionHolders.deletedAt),
      ),
    );
  return rows;
}

/** Writes a new key function holder row; answers it as stored. */
export async function insertHolderRow(
  tx: Transaction,
  values: NewKeyFunctionHolderRow,
): Promise<KeyFunctionHolderRow> {
  const [row] = await tx.insert(keyFunctionHolders).values(values).returning();
  return row as KeyFunctionHolderRow;
}

/** Writes a change to one key function holder row; answers it as stored. */
export async function updateHolderRow(
  tx: Transaction,
  entry: { brokerId: string; id: string },
  set: PgUpdateSetSource<typeof keyFunctionHolders>,
): Promise<KeyFunctionHolderRow> {
  const [row] = await tx
    .update(keyFunctionHolders)
    .set(set)
    .where(
      and(eq(keyFunctionHolders.brokerId, entry.brokerId), eq(keyFunctionHolders.id, entry.id)),
    )
    .returning();
  return row as KeyFunctionHolderRow;
}
