import { and, asc, eq, getTableColumns, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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

/**
 * The condition that a `documents` row is the latest live version of its name (scheme, type,
 * filename): no live version of the same name is newer. A deleted latest lets the one before it
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
