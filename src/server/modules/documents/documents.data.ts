import { and, eq, getTableColumns, isNull } from 'drizzle-orm';
import { documents, employers, schemes } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';
import { liveEmployerOf } from '../employers/employers.data.js';

export type DocumentRow = typeof documents.$inferSelect;

/**
 * A live document by id under a live scheme of a live employer, as far as row-level security lets
 * the actor see: the documents of a deleted scheme can no longer be read, fetched or deleted.
 */
export async function findDocument(tx: Transaction, id: string): Promise<DocumentRow | undefined> {
  const [row] = await tx
    .select(getTableColumns(documents))
    .from(documents)
    .innerJoin(
      schemes,
      and(
        eq(schemes.brokerId, documents.brokerId),
        eq(schemes.id, documents.schemeId),
        isNull(schemes.deletedAt),
      ),
    )
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(eq(documents.id, id), isNull(documents.deletedAt)));
  return row;
}
