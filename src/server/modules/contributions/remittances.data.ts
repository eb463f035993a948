import { and, eq, isNull, sql } from 'drizzle-orm';
import type { EmployerRemittanceFacts, ReceiptFacts } from '../../../contracts/remittance-rules.js';
import { arrayLiteral } from '../../platform/db/database.js';
import type { keyset } from '../../platform/db/keyset.js';
import {
  contributionAdjustments,
  contributions,
  employers,
  members,
  remittanceReceipts,
  schemes,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';

export type RemittanceReceiptRow = typeof remittanceReceipts.$inferSelect;

/** The months of one employer a read covers, both included, `YYYY-MM`. */
export interface EmployerMonths {
  brokerId: string;
  employerId: string;
  from: string;
  to: string;
}

/** The `to` of a window that runs on, past any month payroll may have been given for. */
export const NO_LAST_MONTH = '9999-12';

/** The employers and their months as one relation, for a statement to join. */
function wantedOf(wanted: readonly EmployerMonths[]) {
  return sql`unnest(${arrayLiteral(wanted.map((row) => row.brokerId))}::text[], ${arrayLiteral(
    wanted.map((row) => row.employerId),
  )}::text[], ${arrayLiteral(wanted.map((row) => row.from))}::text[], ${arrayLiteral(
    wanted.map((row) => row.to),
  )}::text[]) as wanted(broker_id, employer_id, from_month, to_month)`;
}

/**
 * What payroll says each of these employers deducted, per month of its window
 * (REMITTANCE_RULES.whatIsDeducted in src/contracts/remittance-rules.ts): the employee and AVC
 * contributions of every live scheme, the employer's own of every scheme but a DB one, each with
 * its corrections, of live members only. One statement however many employers; a month with
 * nothing recorded has no row. The contributions are read through each scheme's
 * (scheme_id, period) index.
 */
export async function deductedByMonth(
  tx: Transaction,
  wanted: readonly EmployerMonths[],
): Promise<Array<{ brokerId: string; employerId: string; month: string; expectedCents: number }>> {
  if (wanted.length === 0) return [];
  const corrections = tx
    .select({ deltaCents: sql<string>`sum(${contributionAdjustments.deltaCents})`.as('delta') })
    .from(contributionAdjustments)
    .where(
      and(
        eq(contributionAdjustments.brokerId, contributions.brokerId),
        eq(contributionAdjustments.contributionId, contributions.id),
      ),
    )
    .as('corrections');
  const rows = await tx
    .select({
      brokerId: schemes.brokerId,
      employerId: schemes.employerId,
      month: contributions.period,
      expectedCents: sql<string>`sum(${contributions.amountCents} + coalesce(${corrections.deltaCents}, 0))::text`,
    })
    .from(schemes)
    .innerJoin(
      wantedOf(wanted),
      sql`wanted.broker_id = ${schemes.brokerId} and wanted.employer_id = ${schemes.employerId}`,
    )
    .innerJoin(
      contributions,
      and(
        eq(contributions.brokerId, schemes.brokerId),
        eq(contributions.schemeId, schemes.id),
        sql`${contributions.period} between wanted.from_month and wanted.to_month`,
      ),
    )
    .innerJoin(
      members,
      and(
        eq(members.brokerId, contributions.brokerId),
        eq(members.id, contributions.memberId),
        isNull(members.deletedAt),
      ),
    )
    .leftJoinLateral(corrections, sql`true`)
    .where(
      and(
        isNull(schemes.deletedAt),
        sql`(${contributions.kind} in ('employee', 'avc') or ${schemes.type} <> 'DB')`,
      ),
    )
    .groupBy(schemes.brokerId, schemes.employerId, contributions.period);
  return rows.map((row) => ({ ...row, expectedCents: Number(row.expectedCents) }));
}

/** The live receipts of these employers for the months of their windows. */
export async function receiptsByMonth(
  tx: Transaction,
  wanted: readonly EmployerMonths[],
): Promise<Array<ReceiptFacts & { brokerId: string; employerId: string }>> {
  if (wanted.length === 0) return [];
  return tx
    .select({
      brokerId: remittanceReceipts.brokerId,
      employerId: remittanceReceipts.employerId,
      month: remittanceReceipts.month,
      receivedOn: remittanceReceipts.receivedOn,
      amountCents: remittanceReceipts.amountCents,
    })
    .from(remittanceReceipts)
    .innerJoin(
      wantedOf(wanted),
      sql`wanted.broker_id = ${remittanceReceipts.brokerId} and wanted.employer_id = ${remittanceReceipts.employerId} and ${remittanceReceipts.month} between wanted.from_month and wanted.to_month`,
    )
    .where(isNull(remittanceReceipts.voidedAt));
}

/**
 * What is known of each of these employers' remittance in its window (EmployerRemittanceFacts in
 * src/contracts/remittance-rules.ts), by `brokerId/employerId`: two statements however many
 * employers. The compliance assessment reads its schemes' employers through here too.
 */
export async function remittanceFactsOf(
  tx: Transaction,
  wanted: readonly EmployerMonths[],
): Promise<Map<string, EmployerRemittanceFacts>> {
  const deducted = await deductedByMonth(tx, wanted);
  const receipts = await receiptsByMonth(tx, wanted);
  const facts = new Map<
    string,
    { deducted: EmployerRemittanceFacts['deducted'][number][]; receipts: ReceiptFacts[] }
  >(wanted.map((employer) => [employerKey(employer), { deducted: [], receipts: [] }]));
  for (const { brokerId, employerId, ...row } of deducted) {
    facts.get(employerKey({ brokerId, employerId }))?.deducted.push(row);
  }
  for (const { brokerId, employerId, ...receipt } of receipts) {
    facts.get(employerKey({ brokerId, employerId }))?.receipts.push(receipt);
  }
  return facts;
}

/**
 * The days in Ireland on which the employer's live schemes were added to this service: the
 * calendar chases its months from the earliest (chasedFrom in src/contracts/remittance-rules.ts).
 */
export async function schemesAddedOn(
  tx: Transaction,
  employer: { brokerId: string; id: string },
): Promise<string[]> {
  const rows = await tx
    .select({
      addedOn: sql<string>`(${schemes.createdAt} at time zone 'Europe/Dublin')::date::text`,
    })
    .from(schemes)
    .where(
      and(
        eq(schemes.brokerId, employer.brokerId),
        eq(schemes.employerId, employer.id),
        isNull(schemes.deletedAt),
      ),
    );
  return rows.map((row) => row.addedOn);
}

/** How remittanceFactsOf keys an employer: its tenant and id. */
export const employerKey = (employer: { brokerId: string; employerId: string }): string =>
  `${employer.brokerId}/${employer.employerId}`;

/** Inserts a receipt and reads it back. */
export async function insertReceipt(
  tx: Transaction,
  values: typeof remittanceReceipts.$inferInsert,
): Promise<RemittanceReceiptRow> {
  const [row] = await tx.insert(remittanceReceipts).values(values).returning();
  return row as RemittanceReceiptRow;
}

/**
 * A live receipt by id under a live employer, as far as row-level security lets the actor see;
 * with `forUpdate`, its row locked until the transaction ends, so two removals of one receipt
 * queue and the second finds it gone (docs/decisions/0091-state-changes-lock-their-row.md).
 */
export async function findReceipt(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<RemittanceReceiptRow | undefined> {
  const query = tx
    .select({ receipt: remittanceReceipts })
    .from(remittanceReceipts)
    .innerJoin(employers, liveEmployerOf(remittanceReceipts.employerId))
    .where(and(eq(remittanceReceipts.id, id), isNull(remittanceReceipts.voidedAt)));
  const [row] = forUpdate ? await query.for('update', { of: remittanceReceipts }) : await query;
  return row?.receipt;
}

/** Marks a receipt voided by `voidedBy` at `at`, for `reason`; the row is kept. */
export async function voidReceiptRow(
  tx: Transaction,
  receipt: { brokerId: string; id: string },
  voided: { at: Date; by: string; reason: string },
): Promise<void> {
  await tx
    .update(remittanceReceipts)
    .set({ voidedAt: voided.at, voidedBy: voided.by, voidReason: voided.reason })
    .where(
      and(eq(remittanceReceipts.brokerId, receipt.brokerId), eq(remittanceReceipts.id, receipt.id)),
    );
}

/** A page of an employer's live receipts, `month` only when given, as `page` orders it. */
export async function listReceipts(
  tx: Transaction,
  employer: { brokerId: string; id: string },
  month: string | undefined,
  page: ReturnType<typeof keyset>,
): Promise<RemittanceReceiptRow[]> {
  return tx
    .select()
    .from(remittanceReceipts)
    .where(
      and(
        eq(remittanceReceipts.brokerId, employer.brokerId),
        eq(remittanceReceipts.employerId, employer.id),
        isNull(remittanceReceipts.voidedAt),
        month === undefined ? undefined : eq(remittanceReceipts.month, month),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}
