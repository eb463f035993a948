import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { auditLog, dataRequests, documents, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { contributionsOfMember } from '../contributions/index.js';
import { findEmployer } from '../employers/index.js';
import { allocationsOfMember } from '../funds/index.js';
import { memberMoneyOn } from '../investments/index.js';
import { findScheme } from '../schemes/index.js';

/** The sign-in accounts of a member: address, role, status and when each was made. */
export function accountsOfMember(tx: Transaction, memberId: string) {
  return tx
    .select({
      email: users.email,
      role: users.role,
      status: users.status,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.memberId, memberId));
}

/**
 * What was done with a member's data, in the chain's order: the audit records about the member,
 * about their contributions (`contributionIds`) and about the documents filed for them
 * (`documentIds`: a statement uploaded, opened or deleted is audited against the document), each
 * its action, who acted and when. Shared with the readable copy (the portal's CSV) through the
 * module's index.
 */
export function processingOfMember(
  tx: Transaction,
  memberId: string,
  contributionIds: readonly string[],
  documentIds: readonly string[],
) {
  return tx
    .select({
      id: auditLog.id,
      action: auditLog.action,
      entityType: auditLog.entityType,
      actorId: auditLog.actorId,
      actorType: auditLog.actorType,
      timestamp: auditLog.timestamp,
    })
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entityType, 'member'), eq(auditLog.entityId, memberId)),
        contributionIds.length === 0
          ? undefined
          : and(
              eq(auditLog.entityType, 'contribution'),
              inArray(auditLog.entityId, contributionIds),
            ),
        documentIds.length === 0
          ? undefined
          : and(eq(auditLog.entityType, 'document'), inArray(auditLog.entityId, documentIds)),
      ),
    )
    .orderBy(asc(auditLog.chainIndex));
}

/**
 * Every document row ever filed for the member, deleted ones and earlier versions included: what
 * was done with each is processing of the member's data even once the file is gone.
 */
async function documentIdsOfMember(tx: Transaction, memberId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.memberId, memberId));
  return rows.map((row) => row.id);
}

/** The member's data-subject requests, the earliest received first, without the staff's text. */
export function requestsOfMember(tx: Transaction, memberId: string) {
  return tx
    .select({
      kind: dataRequests.kind,
      receivedOn: dataRequests.receivedOn,
      dueOn: dataRequests.dueOn,
      status: dataRequests.status,
      closedOn: dataRequests.closedOn,
      refusalCitation: dataRequests.refusalCitation,
    })
    .from(dataRequests)
    .where(eq(dataRequests.memberId, memberId))
    .orderBy(asc(dataRequests.receivedOn), asc(dataRequests.id));
}

/**
 * The documents about the member (a benefit statement, a leaving statement filed for them), every
 * version still held, the oldest first: what each is and when it was stored, not its bytes, which
 * the member reads through the portal.
 */
export function documentsOfMember(tx: Transaction, memberId: string) {
  return tx
    .select({
      id: documents.id,
      documentType: documents.documentType,
      title: documents.title,
      filename: documents.filename,
      version: documents.version,
      storedAt: documents.createdAt,
    })
    .from(documents)
    .where(and(eq(documents.memberId, memberId), isNull(documents.deletedAt)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

/**
 * Everything held about a member, read in one transaction for an export: their scheme and
 * employer, contributions, fund choices, units on `today`, what was done with their data, the
 * documents about them and their requests. The one read behind the JSON copy and the readable
 * copies in words (the portal's CSV and PDF), so the three never hold different things.
 */
export async function memberRecordOf(
  tx: Transaction,
  member: { brokerId: string; id: string; schemeId: string; employerId: string },
  today: string,
) {
  const scheme = await findScheme(tx, member.schemeId);
  const employer = await findEmployer(tx, member.employerId);
  if (!scheme || !employer) throw new Error('a live member without its scheme or employer');
  const contributions = await contributionsOfMember(tx, member.id);
  return {
    scheme,
    employer,
    contributions,
    fundChoices: await allocationsOfMember(tx, member.id),
    // What was done with their data: records about the member, their contributions and the
    // documents filed for them.
    processing: await processingOfMember(
      tx,
      member.id,
      contributions.map((entry) => entry.id),
      await documentIdsOfMember(tx, member.id),
    ),
    money: await memberMoneyOn(tx, member, scheme.type, today),
    documents: await documentsOfMember(tx, member.id),
    requests: await requestsOfMember(tx, member.id),
  };
}
