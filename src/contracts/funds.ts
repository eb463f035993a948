import { z } from 'zod';
import { annualChargeBasisPoints } from './dc-money-rules.js';
import { MAX_FUND_NAME, percentLines } from './fund-shapes.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { text } from './text.js';

export {
  MAX_FUND_NAME,
  MAX_PERCENT_LINES,
  type PercentLines,
  percentLines,
} from './fund-shapes.js';

const fundName = text({ max: MAX_FUND_NAME }).min(1, FIELD_MESSAGES.fundName);
/** ISO 6166: two letters, nine letters or digits, one check digit. */
const isin = text({ max: 32 })
  .toUpperCase()
  .regex(/^[A-Z]{2}[A-Z0-9]{9}[0-9]$/, FIELD_MESSAGES.isin);

export const fundInput = z.object({
  name: fundName,
  isin: isin.nullable().optional(),
  /** The annual management charge, taken monthly (docs/decisions/0127-dc-money.md); 0 when left out. */
  annualChargeBasisPoints: annualChargeBasisPoints.optional(),
});
export type FundInput = z.infer<typeof fundInput>;

export const fundChange = z
  .object({
    name: fundName.optional(),
    isin: isin.nullable().optional(),
    /** A closed fund takes no new choices; choices already made stay as they are. */
    closed: z.boolean().optional(),
    annualChargeBasisPoints: annualChargeBasisPoints.optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: FIELD_MESSAGES.somethingToChange,
  });
export type FundChange = z.infer<typeof fundChange>;

export const fundView = z.object({
  id: z.string(),
  schemeId: z.string(),
  name: z.string(),
  isin: z.string().nullable(),
  closed: z.boolean(),
  /** The annual management charge in basis points: 150 is 1.5% a year. */
  annualChargeBasisPoints: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FundView = z.infer<typeof fundView>;

/**
 * Whole percentages over the scheme's funds, summing to exactly 100
 * (docs/decisions/0027-member-and-money-tables.md).
 */
export const fundChoiceInput = z.object({
  /** From when the choice applies; today when left out. Never in the past. */
  effectiveFrom: isoDate.optional(),
  allocations: percentLines,
});
export type FundChoiceInput = z.infer<typeof fundChoiceInput>;

export const fundChoiceView = z.object({
  id: z.string(),
  memberId: z.string(),
  effectiveFrom: z.string(),
  /** True for the choice in force today. */
  current: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  allocations: z.array(
    z.object({ fundId: z.string(), fundName: z.string(), percent: z.number().int() }),
  ),
});
export type FundChoiceView = z.infer<typeof fundChoiceView>;

/** A page of a scheme's funds, or of a member's fund choices; closed funds only when asked. */
export const fundListQuery = pageQuery.extend({
  includeClosed: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type FundListQuery = z.infer<typeof fundListQuery>;
