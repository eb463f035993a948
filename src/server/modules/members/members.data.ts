import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  ilike,
  inArray,
  isNull,
  ne,
  or,
  type Placeholder,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { keyset } from '../../platform/db/keyset.js';
import { preparedRead } from '../../platform/db/prepared.js';
import {
  employers,
  members,
  payrollEmployees,
  ppsReveals,
  schemes,
  users,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveSchemeOf } from '../schemes/index.js';
import type { MemberChange, MemberListQuery } from './members.schemas.js';

export type MemberRow = typeof members.$inferSelect;

/**
 * The join from a row to its member, which finds it only while the member is live. Rows of a
 * member (contributions, fund choices) join this, `liveSchemeOf` and `liveEmployerOf`.
 */
export const liveMemberOf = (memberId: AnyPgColumn) =>
  and(eq(members.id, memberId), isNull(members.deletedAt));

/**
 * One live member by id, beneath a live scheme and employer: the one shape of "this member, while
 * they exist" that the plain read and the read for a change both take, each selecting its fields.
 */
function liveMemberById<Query extends PgSelect>(query: Query, id: string | Placeholder) {
  return query
    .innerJoin(schemes, liveSchemeOf(members.schemeId))
    .innerJoin(employers, liveEmployerOf(members.employerId))
    .where(and(eq(members.id, id), isNull(members.deletedAt)));
}

/**
 * A live member by id, as far as row-level security lets this actor see, shaped for the reach
 * check: a member record is its own member scope. A member whose scheme or employer is deleted
 * reads as deleted itself (docs/decisions/0038-soft-delete-reaches-beneath.md), for every route
 * that names it: reading, changing, deleting, revealing the PPS number, exporting, and everything
 * recorded under the member.
 */
export async function findMember(
  tx: Transaction,
  id: string,
): Promise<(MemberRow & { memberId: string }) | undefined> {
  const [row] = await memberById(tx, { id });
  return row && { ...row, memberId: row.id };
}

/**
 * The member a change is written beneath, with its scheme's status, the scheme's row held with a
 * share lock until the transaction ends, so a wind-up cannot commit beneath the change
 * (docs/decisions/0146-schemes-wound-up-not-deleted.md). The lookup and the lock are one statement:
 * one round trip on the request path (docs/decisions/0060-request-path-one-round-trip.md).
 */
export async function findMemberForChange(
  tx: Transaction,
  id: string,
): Promise<(MemberRow & { memberId: string; schemeStatus: string }) | undefined> {
  const [row] = await liveMemberById(
    tx
      .select({ ...getTableColumns(members), schemeStatus: schemes.status })
      .from(members)
      .$dynamic(),
    id,
  ).for('share', { of: schemes });
  return row && { ...row, memberId: row.id };
}

const memberById = preparedRead<{ id: string }, MemberRow[]>('member_by_id', (tx, name) =>
  liveMemberById(
    tx.select(getTableColumns(members)).from(members).$dynamic(),
    sql.placeholder('id'),
  ).prepare(name),
);

/** Reads the ids of live members of the scheme whose PPS lookup hash is one of `lookups`. */
export async function membersWithPpsLookup(
  tx: Transaction,
  schemeId: string,
  lookups: string[],
): Promise<{ id: string }[]> {
  return tx
    .select({ id: members.id })
    .from(members)
    .where(
      and(
        eq(members.schemeId, schemeId),
        isNull(members.deletedAt),
        inArray(members.ppsLookup, lookups),
      ),
    );
}

/** Inserts a member and reads it back. */
export async function insertMember(
  tx: Transaction,
  values: typeof members.$inferInsert,
): Promise<MemberRow> {
  const [row] = await tx.insert(members).values(values).returning();
  return row as MemberRow;
}

/** Reads a page of the scheme's live members, by status and name if asked, as `page` orders it. */
export async function listMembersOfScheme(
  tx: Transaction,
  schemeId: string,
  filter: Pick<MemberListQuery, 'status' | 'q'>,
  page: ReturnType<typeof keyset>,
): Promise<MemberRow[]> {
  const pattern = filter.q === undefined ? undefined : `%${escapeLike(filter.q)}%`;
  return tx
    .select()
    .from(members)
    .where(
      and(
        eq(members.schemeId, schemeId),
        isNull(members.deletedAt),
        filter.status === undefined ? undefined : eq(members.status, filter.status),
        pattern === undefined
          ? undefined
          : or(ilike(members.firstName, pattern), ilike(members.lastName, pattern)),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** A user's search text matched literally: % and _ mean themselves. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Writes a change to a member (a new PPS number as sealed already) and reads it back. */
export async function updateMember(
  tx: Transaction,
  id: string,
  change: Omit<MemberChange, 'ppsNumber'> &
    Partial<Pick<MemberRow, 'ppsEncrypted' | 'ppsKeyId' | 'ppsLookup'>> & { updatedAt: Date },
): Promise<MemberRow> {
  const [row] = await tx.update(members).set(change).where(eq(members.id, id)).returning();
  return row as MemberRow;
}

/** Marks a member deleted at `at` (soft delete). */
export async function softDeleteMember(tx: Transaction, id: string, at: Date): Promise<void> {
  await tx.update(members).set({ deletedAt: at, updatedAt: at }).where(eq(members.id, id));
}

/**
 * The tables that hold a sealed PPS number, in the order a run rotates them. A payroll employee
 * is sealed and looked up exactly as a member is, bound to its own row (auto-enrolment
 * payroll-rows.rules.ts), and the assessment matches the two by lookup hash (auto-enrolment.data.ts):
 * rotating one without the other would leave them under different keys and matching nothing.
 */
export const SEALED_TABLES = [
  {
    kind: 'member',
    table: members,
    id: members.id,
    brokerId: members.brokerId,
    ppsEncrypted: members.ppsEncrypted,
    ppsKeyId: members.ppsKeyId,
  },
  {
    kind: 'payroll employee',
    table: payrollEmployees,
    id: payrollEmployees.id,
    brokerId: payrollEmployees.brokerId,
    ppsEncrypted: payrollEmployees.ppsEncrypted,
    ppsKeyId: payrollEmployees.ppsKeyId,
  },
] as const;

export type SealedTable = (typeof SEALED_TABLES)[number];

export interface SealedRow {
  id: string;
  brokerId: string;
  ppsEncrypted: string;
  ppsKeyId: string;
}

/** Counts the table's rows not sealed under `currentKeyId`, by the key that sealed them. */
export async function countSealedByKey(
  tx: Transaction,
  table: SealedTable,
  currentKeyId: string,
): Promise<{ keyId: string; rows: number }[]> {
  return tx
    .select({ keyId: table.ppsKeyId, rows: count() })
    .from(table.table)
    .where(ne(table.ppsKeyId, currentKeyId))
    .groupBy(table.ppsKeyId);
}

/** Reads the lowest ids, at most `limit`, of the table's rows sealed by one of `keyIds`. */
export async function idsSealedBy(
  tx: Transaction,
  table: SealedTable,
  keyIds: string[],
  limit: number,
): Promise<{ id: string }[]> {
  return tx
    .select({ id: table.id })
    .from(table.table)
    .where(inArray(table.ppsKeyId, keyIds))
    .orderBy(asc(table.id))
    .limit(limit);
}

/** Reads and locks, skipping locked ones, the next rows by id not sealed under `currentKeyId`. */
export async function lockSealedBatch(
  tx: Transaction,
  table: SealedTable,
  currentKeyId: string,
  after: string | null,
  limit: number,
): Promise<SealedRow[]> {
  return (await tx
    .select({
      id: table.id,
      brokerId: table.brokerId,
      ppsEncrypted: table.ppsEncrypted,
      ppsKeyId: table.ppsKeyId,
    })
    .from(table.table)
    .where(and(ne(table.ppsKeyId, currentKeyId), after === null ? undefined : gt(table.id, after)))
    .orderBy(asc(table.id))
    .limit(limit)
    .for('update', { skipLocked: true })) as SealedRow[];
}

/** Writes the rows' PPS numbers resealed under `currentKeyId`, and their lookups, in one UPDATE. */
export async function writeResealed(
  tx: Transaction,
  table: SealedTable,
  currentKeyId: string,
  rows: { brokerId: string; id: string; encrypted: string; lookup: string }[],
): Promise<void> {
  const values = rows.map(
    (row) => sql`(${row.brokerId}, ${row.id}, ${row.encrypted}, ${row.lookup})`,
  );
  await tx.execute(sql`
            update ${table.table} as t
            set pps_encrypted = v.encrypted, pps_lookup = v.lookup, pps_key_id = ${currentKeyId}
            from (values ${sql.join(values, sql`, `)}) as v(broker_id, id, encrypted, lookup)
            where t.broker_id = v.broker_id and t.id = v.id`);
}

/** Records a reveal of a member's PPS number with its reason (migration 0045). */
export async function insertPpsReveal(
  tx: Transaction,
  row: typeof ppsReveals.$inferInsert,
): Promise<void> {
  await tx.insert(ppsReveals).values(row);
}

/** A member's latest reveals, newest first, each with the name of the account that made it. */
export function latestPpsReveals(tx: Transaction, memberId: string, limit: number) {
  return tx
    .select({
      id: ppsReveals.id,
      revealedAt: ppsReveals.revealedAt,
      revealedBy: users.name,
      reason: ppsReveals.reason,
      note: ppsReveals.note,
    })
    .from(ppsReveals)
    .leftJoin(users, eq(users.id, ppsReveals.revealedBy))
    .where(eq(ppsReveals.memberId, memberId))
    .orderBy(desc(ppsReveals.revealedAt), desc(ppsReveals.id))
    .limit(limit);
}
