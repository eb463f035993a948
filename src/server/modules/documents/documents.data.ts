import { and, asc, eq, getTableColumns, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { documents, employers, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';

export type DocumentRow = typeof documents.$inferSelect;

/**
 * A live document by id under a live scheme of a live employer, as far as row-level security lets
 * the actor see: the documents of a deleted scheme can no longer be read, fetched or deleted.
 *
 * `lock: 'update'` locks the document's row until the transaction ends, for a change of its state
 * (a delete); `lock: 'share'` keeps it from changing while a register entry is linked to it. A
 * change that waited reads the row as the other committed it: deleted meanwhile, it is not found
 * (docs/decisions/0091-state-changes-lock-their-row.md).
 */
export async function findDocument(
  tx: Transaction,
  id: string,
  { lock }: { lock?: 'update' | 'share' } = {},
): Promise<DocumentRow | undefined> {
  const query = tx
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
  const [row] = lock ? await query.for(lock, { of: documents }) : await query;
  return row;
}

/**
 * The condition that a `documents` row is the latest live version of its name (scheme, type,
 * member, filename): no live version of the same name is newer. A deleted latest lets the one before it
 * stand again (docs/decisions/0062-document-vault.md).
 */
export function isLatestLiveVersion(tx: Transaction) {
  const newer = alias(documents, 'newer');
  return notExists(
    tx
      .select({ one: sql`1` })
      .from(newer)
      .where(
        and(
          eq(newer.brokerId, documents.brokerId),
          eq(newer.schemeId, documents.schemeId),
          eq(newer.documentType, documents.documentType),
          sql`${newer.memberId} is not distinct from ${documents.memberId}`,
          eq(newer.filename, documents.filename),
          isNull(newer.deletedAt),
          sql`${newer.version} > ${documents.version}`,
        ),
      ),
  );
}

/** The current version of every live document of a scheme, by type and filename. */
export function currentDocumentsOf(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
): Promise<DocumentRow[]> {
  return tx
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.brokerId, scheme.brokerId),
        eq(documents.schemeId, scheme.id),
        isNull(documents.deletedAt),
        isLatestLiveVersion(tx),
      ),
    )
    .orderBy(asc(documents.documentType), asc(documents.filename));
}
