import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { keyset } from '../../platform/db/keyset.js';
import { preparedRead } from '../../platform/db/prepared.js';
import { employers, funds, members, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import type { SchemeChange } from './schemes.schemas.js';

export type SchemeRow = typeof schemes.$inferSelect;

/**
 * The join from a row to its scheme, which finds it only while the scheme is live. A row under a
 * scheme joins this and `liveEmployerOf` as well, so that it is found only while neither ancestor
 * is deleted (docs/decisions/0038-soft-delete-reaches-beneath.md).
 */
export const liveSchemeOf = (schemeId: AnyPgColumn) =>
  and(eq(schemes.id, schemeId), isNull(schemes.deletedAt));

/**
 * A live scheme of a live employer, by id, as far as row-level security lets this actor see. A
 * scheme whose employer is deleted reads as deleted itself: an employer with live schemes cannot
 * be deleted, but a scheme created while its employer was being deleted can still end up there.
 */
export async function findScheme(tx: Transaction, id: string): Promise<SchemeRow | undefined> {
  const [row] = await schemeById(tx, { id });
  return row;
}

const schemeById = preparedRead<{ id: string }, SchemeRow[]>('scheme_by_id', (tx, name) =>
  tx
    .select(getTableColumns(schemes))
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(eq(schemes.id, sql.placeholder('id')), isNull(schemes.deletedAt)))
    .prepare(name),
);

/**
 * A scheme as its own page reads it: `findScheme`'s row and whether any member belongs to it
 * (`schemeHasMembers`), in one statement, so the read stays one round trip
 * (docs/decisions/0060-request-path-one-round-trip.md).
 */
export async function findSchemeWithMembership(
  tx: Transaction,
  id: string,
): Promise<(SchemeRow & { hasMembers: boolean }) | undefined> {
  const [row] = await schemeWithMembershipById(tx, { id });
  return row;
}

const schemeWithMembershipById = preparedRead<
  { id: string },
  Array<SchemeRow & { hasMembers: boolean }>
>('scheme_with_membership_by_id', (tx, name) =>
  tx
    .select({
      ...getTableColumns(schemes),
      hasMembers: sql<boolean>`exists (select 1 from ${members} where ${members.brokerId} = ${schemes.brokerId} and ${members.schemeId} = ${schemes.id})`,
    })
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(eq(schemes.id, sql.placeholder('id')), isNull(schemes.deletedAt)))
    .prepare(name),
);

/** Inserts a scheme and reads it back. */
export async function insertScheme(
  tx: Transaction,
  values: typeof schemes.$inferInsert,
): Promise<SchemeRow> {
  const [row] = await tx.insert(schemes).values(values).returning();
  return row as SchemeRow;
}

/** Reads a page of live schemes of live employers, narrowed by `filter`, as `page` orders it. */
export async function listSchemes(
  tx: Transaction,
  filter: { ownEmployerId: string | null; employerId: string | undefined },
  page: ReturnType<typeof keyset>,
): Promise<SchemeRow[]> {
  const ownEmployerOnly =
    filter.ownEmployerId === null ? undefined : eq(schemes.employerId, filter.ownEmployerId);
  // The schemes of a deleted employer are gone with it, also when one was created while the
  // employer was being deleted (docs/decisions/0038-soft-delete-reaches-beneath.md).
  return tx
    .select(getTableColumns(schemes))
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(
      and(
        isNull(schemes.deletedAt),
        ownEmployerOnly,
        filter.employerId === undefined ? undefined : eq(schemes.employerId, filter.employerId),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Writes a change to a scheme and reads it back. */
export async function updateScheme(
  tx: Transaction,
  id: string,
  change: Omit<SchemeChange, 'racKind' | 'fundingLevelPct'> & {
    racKind: string | null;
    fundingLevelBasisPoints?: number | null;
    updatedAt: Date;
  },
): Promise<SchemeRow> {
  const [row] = await tx.update(schemes).set(change).where(eq(schemes.id, id)).returning();
  return row as SchemeRow;
}

/** Marks a scheme deleted at `at` (soft delete). */
export async function softDeleteScheme(tx: Transaction, id: string, at: Date): Promise<void> {
  await tx.update(schemes).set({ deletedAt: at, updatedAt: at }).where(eq(schemes.id, id));
}

/** Whether any member, deleted ones included, belongs to the scheme (reads members). */
export async function schemeHasMembers(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
): Promise<boolean> {
  const [member] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.brokerId, scheme.brokerId), eq(members.schemeId, scheme.id)))
    .limit(1);
  return member !== undefined;
}

/** Whether `fundId` names an open fund of the scheme (reads funds): what a default fund must be. */
export async function isOpenFundOf(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  fundId: string,
): Promise<boolean> {
  const [fund] = await tx
    .select({ id: funds.id })
    .from(funds)
    .where(
      and(
        eq(funds.brokerId, scheme.brokerId),
        eq(funds.schemeId, scheme.id),
        eq(funds.id, fundId),
        isNull(funds.closedAt),
      ),
    )
    .limit(1);
  return fund !== undefined;
}

/**
 * A live scheme's status, held with a share lock until the transaction ends, so that a wind-up
 * (an update of the row) waits for a change beneath the scheme to commit, and a change that starts
 * after a wind-up reads it (docs/decisions/0146-schemes-wound-up-not-deleted.md).
 */
export async function lockSchemeStatus(
  tx: Transaction,
  id: string,
): Promise<{ status: string } | undefined> {
  const [row] = await tx
    .select({ status: schemes.status })
    .from(schemes)
    .where(and(eq(schemes.id, id), isNull(schemes.deletedAt)))
    .for('share');
  return row;
}

/** Winds a scheme up: its status, day, reason and note, once (migration 0046). */
export async function windUpScheme(
  tx: Transaction,
  id: string,
  windUp: { woundUpOn: string; windUpReason: string; windUpNote: string | null; updatedAt: Date },
): Promise<SchemeRow> {
  const [row] = await tx
    .update(schemes)
    .set({ status: 'wound_up', ...windUp })
    .where(and(eq(schemes.id, id), eq(schemes.status, 'active')))
    .returning();
  return row as SchemeRow;
}
