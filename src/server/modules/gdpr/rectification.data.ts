import { and, asc, count, eq, inArray, isNotNull, isNull, max } from 'drizzle-orm';
import {
  dataRequestRecipients,
  dataRequests,
  documents,
  employers,
  users,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type RecipientRow = typeof dataRequestRecipients.$inferSelect;

/** The recipients recorded as told of a request's rectification, in the order given. */
export async function recipientsOf(
  tx: Transaction,
  request: { brokerId: string; id: string },
): Promise<Array<{ name: string; toldOn: string }>> {
  return tx
    .select({ name: dataRequestRecipients.name, toldOn: dataRequestRecipients.toldOn })
    .from(dataRequestRecipients)
    .where(
      and(
        eq(dataRequestRecipients.brokerId, request.brokerId),
        eq(dataRequestRecipients.dataRequestId, request.id),
      ),
    )
    .orderBy(asc(dataRequestRecipients.position));
}

export async function insertRecipients(
  tx: Transaction,
  rows: Array<typeof dataRequestRecipients.$inferInsert>,
): Promise<void> {
  if (rows.length > 0) await tx.insert(dataRequestRecipients).values(rows);
}

/** The completed rectification's corrected details, written with its completion. */
export async function setCorrectedFields(
  tx: Transaction,
  request: { brokerId: string; id: string },
  correctedFields: string[],
): Promise<void> {
  await tx
    .update(dataRequests)
    .set({ correctedFields })
    .where(and(eq(dataRequests.brokerId, request.brokerId), eq(dataRequests.id, request.id)));
}

/**
 * What the service knows of who had a member's data: the member's employer with the number of its
 * active accounts that can read the member's record (its EmployerAdmins and EmployerUsers, as the
 * policy's `member.read` reaches them), and the documents about the member on file.
 */
export async function disclosuresOf(
  tx: Transaction,
  member: { brokerId: string; id: string; employerId: string },
): Promise<{
  employerName: string | null;
  employerAccounts: number;
  documents: number;
  latestDocumentAt: Date | null;
}> {
  const [employer] = await tx
    .select({ name: employers.name })
    .from(employers)
    .where(and(eq(employers.brokerId, member.brokerId), eq(employers.id, member.employerId)));
  const [accounts] = await tx
    .select({ count: count() })
    .from(users)
    .where(
      and(
        eq(users.brokerId, member.brokerId),
        eq(users.employerId, member.employerId),
        eq(users.status, 'active'),
        inArray(users.role, ['EmployerAdmin', 'EmployerUser']),
      ),
    );
  const [issued] = await tx
    .select({ count: count(), latest: max(documents.createdAt) })
    .from(documents)
    .where(
      and(
        eq(documents.brokerId, member.brokerId),
        isNotNull(documents.memberId),
        eq(documents.memberId, member.id),
        isNull(documents.deletedAt),
      ),
    );
  return {
    employerName: employer?.name ?? null,
    employerAccounts: accounts?.count ?? 0,
    documents: issued?.count ?? 0,
    latestDocumentAt: issued?.latest ?? null,
  };
}
