import { z } from 'zod';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { idText, text } from '../../../contracts/text.js';
import { CONTRIBUTION_KINDS } from '../../db/schema.js';
import { pageQuery } from '../../http/pagination.js';
import { cents } from '../members/member-fields.js';

/** A pay period, `YYYY-MM`. */
export const period = text({ max: 32, trim: false })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, FIELD_MESSAGES.payPeriod)
  .refine((value) => value >= '1950-01', FIELD_MESSAGES.periodAfter1950);

export const contributionInput = z.object({
  period,
  kind: z.enum(CONTRIBUTION_KINDS, { error: 'Choose who paid: employee, employer or AVC' }),
  amountCents: cents,
});
export type ContributionInput = z.infer<typeof contributionInput>;

/** A correction: a signed change in cents with the reason for it. */
export const adjustmentInput = z.object({
  deltaCents: z
    .number()
    .int(FIELD_MESSAGES.wholeCents)
    .min(-10_000_000_000)
    .max(10_000_000_000)
    .refine((value) => value !== 0, FIELD_MESSAGES.notZero),
  reason: text({ max: 500, multiline: true }).min(1, FIELD_MESSAGES.reason),
});
export type AdjustmentInput = z.infer<typeof adjustmentInput>;

export const contributionView = z.object({
  id: z.string(),
  memberId: z.string(),
  schemeId: z.string(),
  period: z.string(),
  kind: z.enum(CONTRIBUTION_KINDS, { error: 'Choose who paid: employee, employer or AVC' }),
  /** What counts now: the original amount with every adjustment applied. */
  amountCents: z.number().int(),
  originalAmountCents: z.number().int(),
  importId: z.string().nullable(),
  createdAt: z.string(),
  adjustments: z.array(
    z.object({
      id: z.string(),
      deltaCents: z.number().int(),
      /** Staff-only notes: absent from what a Member reads (issue 21, item 3). */
      reason: z.string().optional(),
      createdBy: z.string().optional(),
      createdAt: z.string(),
    }),
  ),
});
export type ContributionView = z.infer<typeof contributionView>;

export const contributionListQuery = pageQuery.extend({
  from: period.optional(),
  to: period.optional(),
});
export type ContributionListQuery = z.infer<typeof contributionListQuery>;

export const idParams = z.object({ id: idText });
