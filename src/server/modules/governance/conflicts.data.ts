import { and, eq, getTableColumns, isNull } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { PageQuery } from '../../../contracts/pages.js';
import { keyset } from '../../platform/db/keyset.js';
import { conflictsOfInterest, employers, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';

export type ConflictRow = typeof conflictsOfInterest.$inferSelect;

// The register's own reads, written as governance.data.ts writes those of the registers its
// `RegisterTable` lists. Its rows share their columns (`deleted_at` among them), though an entry
// of this register is never deleted: it is closed.

/**
 * An entry of the register by id, under a live scheme of a live employer, as far as row-level
 * security lets the actor see: as every governance register's (governance.data.ts, `findEntry`).
 * With `forUpdate`, its row is locked until the transaction ends, so a change checks the state it
 * acts on (docs/decisions/0091-state-changes-lock-their-row.md).
 */
export async function findConflict(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<ConflictRow | undefined> {
  const query = tx
    .select(getTableColumns(conflictsOfInterest))
    .from(conflictsOfInterest)
    .innerJoin(
      schemes,
      and(
        eq(schemes.brokerId, conflictsOfInterest.brokerId),
        eq(schemes.id, conflictsOfInterest.schemeId),
        isNull(schemes.deletedAt),
      ),
    )
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(eq(conflictsOfInterest.id, id), isNull(conflictsOfInterest.deletedAt)));
  const [row] = forUpdate ? await query.for('update', { of: conflictsOfInterest }) : await query;
  return row;
}

/**
 * A scheme's entries, latest recorded first, closed ones included, from the page's cursor on: one
 * more row than a page, for `pageFrom` to tell whether another follows.
 */
export async function conflictRowsOf(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  query: PageQuery,
): Promise<ConflictRow[]> {
  const { after, orderBy, take } = keyset(
    query,
    { at: conflictsOfInterest.createdAt, id: conflictsOfInterest.id },
    'desc',
  );
  return tx
    .select()
    .from(conflictsOfInterest)
    .where(
      and(
        eq(conflictsOfInterest.brokerId, scheme.brokerId),
        eq(conflictsOfInterest.schemeId, scheme.id),
        isNull(conflictsOfInterest.deletedAt),
        after,
      ),
    )
    .orderBy(...orderBy)
    .limit(take);
}

/** Inserts an entry and answers it as stored. */
export async function insertConflictRow(
  tx: Transaction,
  values: typeof conflictsOfInterest.$inferInsert,
): Promise<ConflictRow> {
  const [row] = await tx.insert(conflictsOfInterest).values(values).returning();
  return row as ConflictRow;
}

/** Writes a change to one entry; answers it as stored. */
export async function updateConflictRow(
  tx: Transaction,
  entry: { brokerId: string; id: string },
  set: PgUpdateSetSource<typeof conflictsOfInterest>,
): Promise<ConflictRow> {
  const [row] = await tx
    .update(conflictsOfInterest)
    .set(set)
    .where(
      and(eq(conflictsOfInterest.brokerId, entry.brokerId), eq(conflictsOfInterest.id, entry.id)),
    )
    .returning();
  return row as ConflictRow;
}
