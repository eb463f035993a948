import { and, eq, inArray, sql } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { dataRequests, members } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type DataRequestRow = typeof dataRequests.$inferSelect;
/**
 * A request with the name of the member it is about, as the register's readers see it, and the
 * member's employer, which the policy's reach is checked against.
 */
export type DataRequestWithMember = DataRequestRow & { memberName: string; employerId: string };

const memberName = sql<string>`${members.firstName} || ' ' || ${members.lastName}`;
const ofItsMember = and(
  eq(members.brokerId, dataRequests.brokerId),
  eq(members.id, dataRequests.memberId),
);

export async function insertRequest(
  tx: Transaction,
  values: typeof dataRequests.$inferInsert,
): Promise<DataRequestRow> {
  const [row] = await tx.insert(dataRequests).values(values).returning();
  if (!row) throw new Error('a data request was not written');
  return row;
}

/** One request by id, with its member's name; locked for the step that changes it when asked. */
export async function findRequest(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<DataRequestWithMember | undefined> {
  const query = tx
    .select({ request: dataRequests, memberName, employerId: members.employerId })
    .from(dataRequests)
    .innerJoin(members, ofItsMember)
    .where(eq(dataRequests.id, id));
  const [row] = forUpdate ? await query.for('update', { of: dataRequests }) : await query;
  return row && { ...row.request, memberName: row.memberName, employerId: row.employerId };
}

/** A step's change of one request. */
export async function updateRequest(
  tx: Transaction,
  request: { brokerId: string; id: string },
  changes: Partial<
    Pick<
      DataRequestRow,
      | 'status'
      | 'dueOn'
      | 'extensionReason'
      | 'closedOn'
      | 'completionNote'
      | 'refusalReason'
      | 'refusalCitation'
      | 'updatedAt'
    >
  >,
): Promise<DataRequestRow> {
  const [row] = await tx
    .update(dataRequests)
    .set(changes)
    .where(and(eq(dataRequests.brokerId, request.brokerId), eq(dataRequests.id, request.id)))
    .returning();
  if (!row) throw new Error('a data request changed under its lock');
  return row;
}

/**
 * Holds a member's requests against another being made at the same time, until the transaction
 * ends: an advisory lock on the member, as no row yet stands for the request to come.
 */
export async function lockRequestsOfMember(
  tx: Transaction,
  member: { brokerId: string; id: string },
): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('data-requests'), hashtext(${`${member.brokerId}/${member.id}`}))`,
  );
}

/** The member's request of `kind` still to be answered (open or extended), if there is one. */
export async function openRequestOfKind(
  tx: Transaction,
  member: { brokerId: string; id: string },
  kind: string,
): Promise<DataRequestRow | undefined> {
  const [row] = await tx
    .select()
    .from(dataRequests)
    .where(
      and(
        eq(dataRequests.brokerId, member.brokerId),
        eq(dataRequests.memberId, member.id),
        eq(dataRequests.kind, kind),
        inArray(dataRequests.status, ['open', 'extended']),
      ),
    )
    .orderBy(dataRequests.receivedOn)
    .limit(1);
  return row;
}

/**
 * A page of the requests row-level security lets the actor see, `status` only when given, one
 * member's alone when `memberId` is given (a member reading their own).
 */
export async function listRequests(
  tx: Transaction,
  status: DataRequestRow['status'] | undefined,
  page: ReturnType<typeof keyset>,
  memberId: string | null = null,
): Promise<DataRequestWithMember[]> {
  const rows = await tx
    .select({ request: dataRequests, memberName, employerId: members.employerId })
    .from(dataRequests)
    .innerJoin(members, ofItsMember)
    .where(
      and(
        status === undefined ? undefined : eq(dataRequests.status, status),
        memberId === null ? undefined : eq(dataRequests.memberId, memberId),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
  return rows.map((row) => ({
    ...row.request,
    memberName: row.memberName,
    employerId: row.employerId,
  }));
}
