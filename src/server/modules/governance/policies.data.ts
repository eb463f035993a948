import { and, desc, eq, inArray, isNull, lte, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { oraReports, significantChanges, writtenPolicies } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { OraReportRow, PolicyRow, SignificantChangeRow } from './governance.data.js';

export type NewPolicyRow = typeof writtenPolicies.$inferInsert;
export type NewOraReportRow = typeof oraReports.$inferInsert;
export type NewSignificantChangeRow = typeof significantChanges.$inferInsert;

/** The versions a policy list shows unless it asks for history: drafts and the version in use. */
export const draftOrApproved = (): SQL => inArray(writtenPolicies.status, ['draft', 'approved']);

/** When each significant change recorded against these policies occurred, per policy. */
export async function changeDatesByPolicy(
  tx: Transaction,
  policyIds: string[],
): Promise<Map<string, string[]>> {
  const byPolicy = new Map<string, string[]>();
  if (policyIds.length === 0) return byPolicy;
  const rows = await tx
    .select({ policyId: significantChanges.policyId, occurredOn: significantChanges.occurredOn })
    .from(significantChanges)
    .where(
      and(inArray(significantChanges.policyId, policyIds), isNull(significantChanges.deletedAt)),
    );
  for (const row of rows) {
    const list = byPolicy.get(row.policyId as string) ?? [];
    list.push(row.occurredOn);
    byPolicy.set(row.policyId as string, list);
  }
  return byPolicy;
}

/** Writes a new significant change row; answers it as stored. */
export async function insertSignificantChangeRow(
  tx: Transaction,
  values: NewSignificantChangeRow,
): Promise<SignificantChangeRow> {
  const [row] = await tx.insert(significantChanges).values(values).returning();
  return row as SignificantChangeRow;
}

/** Writes a new written policy row; answers it as stored. */
export async function insertPolicyRow(tx: Transaction, values: NewPolicyRow): Promise<PolicyRow> {
  const [row] = await tx.insert(writtenPolicies).values(values).returning();
  return row as PolicyRow;
}

/** Writes a change to one written policy row; answers it as stored. */
export async function updatePolicyRow(
  tx: Transaction,
  entry: { brokerId: string; id: string },
  set: PgUpdateSetSource<typeof writtenPolicies>,
): Promise<PolicyRow> {
  const [row] = await tx
    .update(writtenPolicies)
    .set(set)
    .where(and(eq(writtenPolicies.brokerId, entry.brokerId), eq(writtenPolicies.id, entry.id)))
    .returning();
  return row as PolicyRow;
}

/** Reads the approved (in use) version of a policy kind in a scheme, if any, locking its row. */
export async function approvedPolicyForUpdate(
  tx: Transaction,
  policy: { brokerId: string; schemeId: string; kind: string },
): Promise<PolicyRow | undefined> {
  const [row] = await tx
    .select()
    .from(writtenPolicies)
    .where(
      and(
        eq(writtenPolicies.brokerId, policy.brokerId),
        eq(writtenPolicies.schemeId, policy.schemeId),
        eq(writtenPolicies.kind, policy.kind),
        eq(writtenPolicies.status, 'approved'),
        isNull(writtenPolicies.deletedAt),
      ),
    )
    .for('update');
  return row;
}

/** Reads a scheme's live ORA reports performed on or before `performedOn`, latest first. */
export async function oraReportsUpTo(
  tx: Transaction,
  scheme: { brokerId: string; schemeId: string },
  performedOn: string,
): Promise<OraReportRow[]> {
  const rows = await tx
    .select()
    .from(oraReports)
    .where(
      and(
        eq(oraReports.brokerId, scheme.brokerId),
        eq(oraReports.schemeId, scheme.schemeId),
        isNull(oraReports.deletedAt),
        lte(oraReports.performedOn, performedOn),
      ),
    )
    .orderBy(desc(oraReports.performedOn), desc(oraReports.createdAt));
  return rows;
}

/** Reads when each live change to a scheme's risk profile (one against no policy) occurred. */
export async function riskProfileChangeDates(tx: Transaction, schemeId: string): Promise<string[]> {
  const rows = await tx
    .select({ occurredOn: significantChanges.occurredOn })
    .from(significantChanges)
    .where(
      and(
        eq(significantChanges.schemeId, schemeId),
        isNull(significantChanges.policyId),
        isNull(significantChanges.deletedAt),
      ),
    );
  return rows.map((change) => change.occurredOn);
}

/** Writes a new ORA report row; answers it as stored. */
export async function insertOraReportRow(
  tx: Transaction,
  values: NewOraReportRow,
): Promise<OraReportRow> {
  const [row] = await tx.insert(oraReports).values(values).returning();
  return row as OraReportRow;
}

/** Writes a change to one ORA report row; answers it as stored. */
export async function updateOraReportRow(
  tx: Transaction,
  entry: { brokerId: string; id: string },
  set: PgUpdateSetSource<typeof oraReports>,
): Promise<OraReportRow> {
  const [row] = await tx
    .update(oraReports)
    .set(set)
    .where(and(eq(oraReports.brokerId, entry.brokerId), eq(oraReports.id, entry.id)))
    .returning();
  return row as OraReportRow;
}
