import {
  and,
  asc,
  eq,
  getTableColumns,
  isNull,
  max,
  notExists,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
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

/** A document's name: the series its versions are numbered in. */
type DocumentName = Pick<
  DocumentRow,
  'brokerId' | 'schemeId' | 'documentType' | 'memberId' | 'filename'
>;

/**
 * Takes the name's advisory lock for the rest of the transaction, then reads the highest version
 * stored under the name (0 for none). A member's documents are a series of their own
 * (documents_version_once_key).
 */
export async function lockedLatestVersion(tx: Transaction, name: DocumentName): Promise<number> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('documents'), hashtext(${`${name.brokerId}/${name.schemeId}/${name.documentType}/${name.memberId ?? ''}/${name.filename}`}))`,
  );
  const [latest] = await tx
    .select({ version: max(documents.version) })
    .from(documents)
    .where(
      and(
        eq(documents.brokerId, name.brokerId),
        eq(documents.schemeId, name.schemeId),
        eq(documents.documentType, name.documentType),
        sql`${documents.memberId} is not distinct from ${name.memberId}`,
        eq(documents.filename, name.filename),
      ),
    );
  return latest?.version ?? 0;
}

/** Writes a document's row. */
export async function insertDocument(tx: Transaction, row: DocumentRow): Promise<void> {
  await tx.insert(documents).values(row);
}

/**
 * A page of a scheme's live documents in the keyset's order. `memberId` narrows them to what a
 * member sees: member-facing, and about no member or about them; `allVersions` false keeps the
 * latest live version of each name.
 */
export function listDocuments(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  { memberId, allVersions }: { memberId: string | null; allVersions: boolean | undefined },
  page: { after: SQL | undefined; orderBy: SQL[]; take: number },
): Promise<DocumentRow[]> {
  return tx
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.brokerId, scheme.brokerId),
        eq(documents.schemeId, scheme.id),
        isNull(documents.deletedAt),
        memberId === null ? undefined : eq(documents.memberFacing, true),
        // A member's own documents and the scheme's, never another member's.
        memberId === null
          ? undefined
          : or(isNull(documents.memberId), eq(documents.memberId, memberId)),
        // The latest live version of each name, unless every version is asked for.
        allVersions ? undefined : isLatestLiveVersion(tx),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Marks a document deleted. */
export async function markDocumentDeleted(
  tx: Transaction,
  row: { brokerId: string; id: string },
  at: { deletedAt: Date; updatedAt: Date },
): Promise<void> {
  await tx
    .update(documents)
    .set(at)
    .where(and(eq(documents.brokerId, row.brokerId), eq(documents.id, row.id)));
}

/**
 * Writes a scan's verdict on a document that is still pending, in the statement that settles it;
 * undefined when it is no longer pending (the storage sweep scanned it meanwhile).
 */
export async function settlePendingScan(
  tx: Transaction,
  row: { brokerId: string; id: string },
  verdict: { scanStatus: 'clean' | 'quarantined'; scannedAt: Date; updatedAt: Date },
): Promise<DocumentRow | undefined> {
  const [settled] = await tx
    .update(documents)
    .set(verdict)
    .where(
      and(
        eq(documents.brokerId, row.brokerId),
        eq(documents.id, row.id),
        eq(documents.scanStatus, 'pending'),
      ),
    )
    .returning();
  return settled;
}

/** A document's row by id as it stands, whatever its state. */
export async function documentRowOf(
  tx: Transaction,
  row: { brokerId: string; id: string },
): Promise<DocumentRow | undefined> {
  const [current] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.brokerId, row.brokerId), eq(documents.id, row.id)));
  return current;
}
