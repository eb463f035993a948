import { z } from 'zod';
import { idText, text } from '../../../contracts/text.js';
import { cents } from '../members/member-fields.js';
import { period } from './contributions.schemas.js';

/** The members of one scheme that a payroll grid may hold: a whole payroll run fits. */
export const PAYROLL_ROWS_MAX = 2000;

export const payrollParams = z.object({ id: idText, period });

const cell = z.object({ contributionId: z.string(), amountCents: z.number().int() }).nullable();

/** One pay period of a whole scheme: members × employee, employer and AVC (issue 21, item 6). */
export const payrollView = z.object({
  schemeId: z.string(),
  period: z.string(),
  rows: z.array(
    z.object({
      memberId: z.string(),
      name: z.string(),
      status: z.string(),
      employee: cell,
      employer: cell,
      avc: cell,
    }),
  ),
  totals: z.object({
    employeeCents: z.number().int(),
    employerCents: z.number().int(),
    avcCents: z.number().int(),
    totalCents: z.number().int(),
  }),
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
    .max(PAYROLL_ROWS_MAX, `must have at most ${PAYROLL_ROWS_MAX} rows`),
  /** Required when an amount already recorded changes: the correction's reason. */
  reason: text({ max: 500, multiline: true }).optional(),
});
export type PayrollInput = z.infer<typeof payrollInput>;

export const payrollSaved = payrollView.extend({
  created: z.number().int(),
  corrected: z.number().int(),
});

export const periodTotalsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(24),
  /** The period to continue before, as the previous page's `nextCursor` gave it. */
  cursor: period.optional(),
});

export const periodTotals = z.object({
  items: z.array(
    z.object({
      schemeId: z.string(),
      period: z.string(),
      employeeCents: z.number().int(),
      employerCents: z.number().int(),
      avcCents: z.number().int(),
      totalCents: z.number().int(),
      memberCount: z.number().int(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
