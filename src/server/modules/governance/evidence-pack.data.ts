import { and, asc, eq, isNull } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  auditLog,
  brokers,
  employers,
  keyFunctionHolders,
  oraReports,
  trustees,
  users,
  writtenPolicies,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/** Reads the name of a scheme's employer, deleted or not; none if row-level security hides it. */
export async function employerNameOf(
  tx: Transaction,
  scheme: { brokerId: string; employerId: string },
): Promise<string | undefined> {
  const [employer] = await tx
    .select({ name: employers.name })
    .from(employers)
    .where(and(eq(employers.brokerId, scheme.brokerId), eq(employers.id, scheme.employerId)));
  return employer?.name;
}

/**
 * Who prepares a pack, as the cover names them: the user's name and their firm's, each none where
 * row-level security hides it. Read for the PDF only, never for a log or the audit record.
 */
export async function preparerOf(
  tx: Transaction,
  reader: { userId: string; tenantId: string },
): Promise<{ name: string | null; firmName: string | null }> {
  const [user] = await tx
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.brokerId, reader.tenantId), eq(users.id, reader.userId)));
  const [firm] = await tx
    .select({ name: brokers.name })
    .from(brokers)
    .where(eq(brokers.id, reader.tenantId));
  return { name: user?.name ?? null, firmName: firm?.name ?? null };
}

/** The registers as they stand, in a stable order (appointment or performance, then id). */
export async function registersOf(tx: Transaction, scheme: { brokerId: string; id: string }) {
  const ofScheme = (table: { brokerId: PgColumn; schemeId: PgColumn; deletedAt: PgColumn }) =>
    and(
      eq(table.brokerId, scheme.brokerId),
      eq(table.schemeId, scheme.id),
      isNull(table.deletedAt),
    );
  return {
    // Never a trustee's e-mail address or phone number: not governance facts, and personal data.
    trustees: await tx
      .select({
        name: trustees.name,
        kind: trustees.kind,
        directorCount: trustees.directorCount,
        appointedOn: trustees.appointedOn,
        endedOn: trustees.endedOn,
        chair: trustees.chair,
      })
      .from(trustees)
      .where(ofScheme(trustees))
      .orderBy(asc(trustees.appointedOn), asc(trustees.id)),
    // Never the holder's e-mail address: not a governance fact, and personal data.
    keyFunctionHolders: await tx
      .select({
        function: keyFunctionHolders.function,
        holderName: keyFunctionHolders.holderName,
        appointedOn: keyFunctionHolders.appointedOn,
        endedOn: keyFunctionHolders.endedOn,
        fitnessAndProbity: keyFunctionHolders.fitnessAndProbity,
        alsoServesEmployer: keyFunctionHolders.alsoServesEmployer,
      })
      .from(keyFunctionHolders)
      .where(ofScheme(keyFunctionHolders))
      .orderBy(
        asc(keyFunctionHolders.function),
        asc(keyFunctionHolders.appointedOn),
        asc(keyFunctionHolders.id),
      ),
    policies: await tx
      .select({
        kind: writtenPolicies.kind,
        title: writtenPolicies.title,
        version: writtenPolicies.version,
        status: writtenPolicies.status,
        approvedOn: writtenPolicies.approvedOn,
        approvalReference: writtenPolicies.approvalReference,
        nextReviewDue: writtenPolicies.nextReviewDue,
      })
      .from(writtenPolicies)
      .where(ofScheme(writtenPolicies))
      .orderBy(asc(writtenPolicies.kind), asc(writtenPolicies.createdAt), asc(writtenPolicies.id)),
    // The summary text is free text: the report itself travels as a document (ora_report).
    oraReports: await tx
      .select({
        performedOn: oraReports.performedOn,
        trigger: oraReports.trigger,
        nextDue: oraReports.nextDue,
      })
      .from(oraReports)
      .where(ofScheme(oraReports))
      .orderBy(asc(oraReports.performedOn), asc(oraReports.id)),
  };
}

/** Reads where one audit record landed in its tenant's chain: its position and hash. */
export async function auditRecordPosition(
  tx: Transaction,
  record: { tenantId: string; id: string },
): Promise<{ chainKey: string; chainIndex: number; hash: string } | undefined> {
  const [head] = await tx
    .select({
      chainKey: auditLog.chainKey,
      chainIndex: auditLog.chainIndex,
      hash: auditLog.hash,
    })
    .from(auditLog)
    // The record is in its tenant's chain: looked up by the log's key, chain first.
    .where(and(eq(auditLog.chainKey, record.tenantId), eq(auditLog.id, record.id)));
  return head;
}
