import { z } from 'zod';
import { dateInWords } from './irish-dates.js';
import { isoDate } from './members.js';
import { cents, formatCents, signedCents } from './money.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { idText, text } from './text.js';

/**
 * Who paid a contribution (docs/decisions/0027-member-and-money-tables.md), in the one order every
 * table, chart, legend and export lists them: the member, their employer, then the member's
 * additional voluntary contributions.
 */
export const CONTRIBUTION_KINDS = ['employee', 'employer', 'avc'] as const;
export type ContributionKind = (typeof CONTRIBUTION_KINDS)[number];

/** A kind's place in `CONTRIBUTION_KINDS`; a kind it does not know comes last. */
export function contributionKindRank(kind: string): number {
  const rank = (CONTRIBUTION_KINDS as readonly string[]).indexOf(kind);
  return rank === -1 ? CONTRIBUTION_KINDS.length : rank;
}

/**
 * The order a member's contributions are read in, on their page and in their data: the newest pay
 * period first, and within a month by who paid, as `CONTRIBUTION_KINDS` lists them. A member has
 * one contribution of each kind a month, so the order is the same whenever it is read, whatever
 * order payroll recorded them in.
 */
export function compareContributions(
  a: { period: string; kind: string },
  b: { period: string; kind: string },
): number {
  if (a.period !== b.period) return a.period < b.period ? 1 : -1;
  return contributionKindRank(a.kind) - contributionKindRank(b.kind);
}

/** Who paid a contribution, as staff read it: on the pages, in the payroll grid and its chart. */
export const CONTRIBUTION_KIND_LABELS: Record<ContributionKind, string> = {
  employee: 'Employee',
  employer: 'Employer',
  avc: 'AVC',
};

/**
 * The same kinds in the member's own words, on their pages and in the copy of their data they
 * download.
 */
export const CONTRIBUTION_KIND_LABELS_FOR_MEMBER: Record<ContributionKind, string> = {
  employee: 'Paid by you',
  employer: 'Paid by your employer',
  avc: 'Your extra contributions (AVC)',
};

/**
 * The words for the kinds on one page: the member's own, on their own record, and the staff's
 * otherwise. A page's chart, its legend and the tables beside it take them from here, so they
 * never name one kind two ways.
 */
export function contributionKindLabels(
  ownRecord: boolean,
): Readonly<Record<ContributionKind, string>> {
  return ownRecord ? CONTRIBUTION_KIND_LABELS_FOR_MEMBER : CONTRIBUTION_KIND_LABELS;
}

/**
 * What a member reads of each correction to one contribution, oldest first: "Corrected from
 * €150.00 on 3 Nov 2026", the amount it stood at before and the day in Ireland it was corrected.
 * None for a contribution never corrected. The staff's reason is not part of it: that is their
 * note (contribution.notes.read).
 */
export function correctionNotes(contribution: {
  originalAmountCents: number;
  adjustments: readonly { deltaCents: number; createdAt: string }[];
}): string[] {
  let before = contribution.originalAmountCents;
  return contribution.adjustments.map((adjustment) => {
    const note = `Corrected from ${formatCents(before)} on ${dateInWords(adjustment.createdAt)}`;
    before += adjustment.deltaCents;
    return note;
  });
}

/** What was paid in, per kind and in all, as a member, a grid or an import totals it. */
export const paidIn = z.object({
  employeeCents: z.number().int(),
  employerCents: z.number().int(),
  avcCents: z.number().int(),
  totalCents: z.number().int(),
});
export type PaidIn = z.infer<typeof paidIn>;

/** A pay period, `YYYY-MM`. */
export const period = text({ max: 32, trim: false })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, FIELD_MESSAGES.payPeriod)
  .refine((value) => value >= '1950-01', FIELD_MESSAGES.periodAfter1950);

export const contributionInput = z.object({
  period,
  kind: z.enum(CONTRIBUTION_KINDS, { error: 'Choose who paid: employee, employer or AVC' }),
  amountCents: cents,
  /**
   * The day the money and its schedule arrived, from which it is invested
   * (docs/decisions/0127-dc-money.md): the day it is recorded when left out; never after today.
   */
  receivedOn: isoDate.optional(),
});
export type ContributionInput = z.infer<typeof contributionInput>;

/** A correction: a signed change in cents with the reason for it. */
export const adjustmentInput = z.object({
  deltaCents: signedCents,
  reason: text({ max: 500, multiline: true }).min(1, FIELD_MESSAGES.reason),
});
export type AdjustmentInput = z.infer<typeof adjustmentInput>;

export const contributionView = z.object({
  id: z.string(),
  memberId: z.string(),
  schemeId: z.string(),
  period: z.string(),
  kind: z.enum(CONTRIBUTION_KINDS),
  /** What counts now: the original amount with every adjustment applied. */
  amountCents: z.number().int(),
  originalAmountCents: z.number().int(),
  importId: z.string().nullable(),
  /** The day the money arrived (`YYYY-MM-DD`), from which it is invested. */
  receivedOn: z.string(),
  createdAt: z.string(),
  adjustments: z.array(
    z.object({
      id: z.string(),
      deltaCents: z.number().int(),
      /** Staff-only notes: absent from what a Member reads. */
      reason: z.string().optional(),
      createdBy: z.string().optional(),
      createdAt: z.string(),
    }),
  ),
});
export type ContributionView = z.infer<typeof contributionView>;

/** The members of one scheme that a payroll grid may hold: a whole payroll run fits. */
export const PAYROLL_ROWS_MAX = 2000;

const cell = z.object({ contributionId: z.string(), amountCents: z.number().int() }).nullable();

/** One pay period of a whole scheme: members × employee, employer and AVC (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
export const payrollView = z.object({
  schemeId: z.string(),
  period: z.string(),
  rows: z.array(
    z.object({
      memberId: z.string(),
      name: z.string(),
      status: z.string(),
      /** The day of the member's latest change of status (contributionAfterLeaving). */
      statusOn: z.string().nullable(),
      /**
       * The member's annual salary, from which the page fills a percentage of it
       * (docs/decisions/0152-payroll-grid-fills.md); never logged or audited.
       */
      salaryCents: z.number().int(),
      employee: cell,
      employer: cell,
      avc: cell,
    }),
  ),
  totals: paidIn,
});
export type PayrollView = z.infer<typeof payrollView>;

/** A cell left out (or null) stays as it is; a number is what the period's amount must now be. */
const amount = cents.nullable().optional();

export const payrollInput = z.object({
  rows: z
    .array(
      z.object({
        memberId: idText,
        employeeCents: amount,
        employerCents: amount,
        avcCents: amount,
      }),
    )
    .max(PAYROLL_ROWS_MAX, `A grid holds at most ${PAYROLL_ROWS_MAX} members`),
  /** Required when an amount already recorded changes: the correction's reason. */
  reason: text({ max: 500, multiline: true }).optional(),
});
export type PayrollInput = z.infer<typeof payrollInput>;

export const payrollSaved = payrollView.extend({
  created: z.number().int(),
  corrected: z.number().int(),
});

export const periodTotals = z.object({
  items: z.array(
    paidIn.extend({
      schemeId: z.string(),
      period: z.string(),
      memberCount: z.number().int(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
