import { z } from 'zod';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { idText, text } from './text.js';

/** The longest name a fund may have. */
export const MAX_FUND_NAME = 200;

const fundName = text({ max: MAX_FUND_NAME }).min(1, FIELD_MESSAGES.fundName);
/** ISO 6166: two letters, nine letters or digits, one check digit. */
const isin = text({ max: 32 })
  .toUpperCase()
  .regex(/^[A-Z]{2}[A-Z0-9]{9}[0-9]$/, FIELD_MESSAGES.isin);

export const fundInput = z.object({ name: fundName, isin: isin.nullable().optional() });
export type FundInput = z.infer<typeof fundInput>;

export const fundChange = z
  .object({
    name: fundName.optional(),
    isin: isin.nullable().optional(),
    /** A closed fund takes no new choices; choices already made stay as they are. */
    closed: z.boolean().optional(),
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
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FundView = z.infer<typeof fundView>;

/** The most lines a fund choice or a switch may have. */
export const MAX_PERCENT_LINES = 50;

/**
 * Money shared over the scheme's funds (domain.md): whole percentages, each fund once, summing to
 * exactly 100. A member's fund choice is made of these lines, and so is a switch of what the member
 * holds (src/contracts/dc-money-rules.ts), so the two can never be held to different rules.
 */
export const percentLines = z
  .array(
    z.object({
      fundId: idText,
      percent: z.number().int(FIELD_MESSAGES.wholePercent).min(1).max(100),
    }),
  )
  .min(1, 'Choose at least one fund')
  .max(MAX_PERCENT_LINES)
  .superRefine((lines, context) => {
    const total = lines.reduce((sum, line) => sum + line.percent, 0);
    if (total !== 100) {
      context.addIssue({
        code: 'custom',
        message: `The percentages must add up to exactly 100: they add up to ${total}`,
      });
    }
    const seen = new Set<string>();
    lines.forEach((line, index) => {
      if (seen.has(line.fundId)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'fundId'],
          message: 'Choose each fund only once',
        });
      }
      seen.add(line.fundId);
    });
  });
export type PercentLines = z.infer<typeof percentLines>;

/** domain.md: whole percentages over the scheme's funds, summing to exactly 100. */
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
