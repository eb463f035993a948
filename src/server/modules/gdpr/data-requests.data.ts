import { and, eq, sql } from 'drizzle-orm';
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

/** A page of the requests row-level security lets the actor see, `status` only when given. */
export async function listRequests(
  tx: Transaction,
  status: DataRequestRow['status'] | undefined,
  page: ReturnType<typeof keyset>,
): Promise<DataRequestWithMember[]> {
  const rows = await tx
    .select({ request: dataRequests, memberName, employerId: members.employerId })
    .from(dataRequests)
    .innerJoin(members, ofItsMember)
    .where(and(status === undefined ? undefined : eq(dataRequests.status, status), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
  return rows.map((row) => ({
    ...row.request,
    memberName: row.memberName,
    employerId: row.employerId,
  }));
}
