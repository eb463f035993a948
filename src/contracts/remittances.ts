import { z } from 'zod';
import { period } from './contributions.js';
import { isoDate } from './members.js';
import { MAX_CENTS } from './money.js';
import { pageQuery } from './pages.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { REMITTANCE_STATUSES } from './remittance-rules.js';
import { text } from './text.js';

/**
 * Contribution remittance as the API reads and answers it
 * (docs/decisions/0136-contribution-remittance.md; rules: remittance-rules.ts): the receipts an
 * employer's payments are recorded as, the remittance calendar and the trustees' late-payment
 * report.
 */

/** A remittance calendar covers the 12 months ending with `to` unless told. */
export const DEFAULT_REMITTANCE_MONTHS = 12;
/** And at most this many months at a time. */
export const MAX_REMITTANCE_MONTHS = 24;

/** A payment received from the employer for one month's deductions. */
export const remittanceReceiptInput = z.object({
  /** The month of deduction it is for, `YYYY-MM`. */
  month: period,
  /** The day it reached the scheme: within or after its month, never after today. */
  receivedOn: isoDate,
  amountCents: z
    .number({ error: FIELD_MESSAGES.wholeCents })
    .int(FIELD_MESSAGES.wholeCents)
    .min(1, FIELD_MESSAGES.receiptAmount)
    .max(MAX_CENTS, FIELD_MESSAGES.euroTooLarge),
  /** The bank's or the employer's reference for the payment. */
  reference: text({ max: 200 }).min(1, FIELD_MESSAGES.receiptReference).nullable().optional(),
});
export type RemittanceReceiptInput = z.infer<typeof remittanceReceiptInput>;

export const remittanceReceiptView = z.object({
  id: z.string(),
  employerId: z.string(),
  month: z.string(),
  receivedOn: z.string(),
  amountCents: z.number().int(),
  reference: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type RemittanceReceiptView = z.infer<typeof remittanceReceiptView>;

/** `?month=` narrows the list to the receipts for one month of deduction. */
export const remittanceReceiptQuery = pageQuery.extend({ month: period.optional() });
export type RemittanceReceiptQuery = z.infer<typeof remittanceReceiptQuery>;

/** Why a receipt is removed: kept beside it, as a correction keeps its reason. */
export const remittanceReceiptVoid = z.object({
  reason: text({ max: 500, multiline: true }).min(1, FIELD_MESSAGES.voidReason),
});
export type RemittanceReceiptVoid = z.infer<typeof remittanceReceiptVoid>;

/**
 * `?from=YYYY-MM&to=YYYY-MM`: `to` is the current month and `from` 11 months before `to` when
 * left out; at most MAX_REMITTANCE_MONTHS months, `from` never after `to`.
 */
export const remittanceQuery = z.object({ from: period.optional(), to: period.optional() });
export type RemittanceQuery = z.infer<typeof remittanceQuery>;

/** One month of an employer's remittance (RemittanceMonth in remittance-rules.ts). */
export const remittanceMonthView = z.object({
  month: z.string(),
  /** The 21st day after the month's end (s.58A). */
  dueOn: z.string(),
  /** What payroll says was deducted: REMITTANCE_RULES.whatIsDeducted. */
  expectedCents: z.number().int(),
  receivedCents: z.number().int(),
  /** The day the receipts first reached what was expected; null until they have. */
  receivedOn: z.string().nullable(),
  status: z.enum(REMITTANCE_STATUSES),
});
export type RemittanceMonthView = z.infer<typeof remittanceMonthView>;

export const remittanceCalendar = z.object({
  employerId: z.string(),
  from: z.string(),
  to: z.string(),
  /**
   * The month the employer's first scheme was added to this service in, or null with none: a
   * month before it not received in full is `not_chased` (REMITTANCE_RULES.monthsSinceAdded).
   */
  chasedFrom: z.string().nullable(),
  /** Each month with anything expected or received, oldest first. */
  items: z.array(remittanceMonthView),
});
export type RemittanceCalendar = z.infer<typeof remittanceCalendar>;

/** `?year=YYYY`: the current year in Ireland when left out. */
export const lateRemittanceQuery = z.object({
  year: text({ max: 8, trim: false })
    .regex(/^\d{4}$/, FIELD_MESSAGES.calendarYear)
    .refine((value) => value >= '1950', FIELD_MESSAGES.calendarYear)
    .optional(),
});
export type LateRemittanceQuery = z.infer<typeof lateRemittanceQuery>;

/** The trustees' late-payment report: a scheme's employer's months of a year, late or missing. */
export const lateRemittanceReport = z.object({
  schemeId: z.string(),
  employerId: z.string(),
  year: z.string(),
  /**
   * The month the scheme was added to this service in: from it, a month not received in full
   * past its due day is reported missing; a month received late is reported whatever its month.
   */
  countedFrom: z.string(),
  items: z.array(
    remittanceMonthView.extend({
      status: z.enum(['late', 'missing']),
      /** Days after the due day it was received in full, or, missing, that have passed by today. */
      daysLate: z.number().int(),
    }),
  ),
});
export type LateRemittanceReport = z.infer<typeof lateRemittanceReport>;
