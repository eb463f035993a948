import { z } from 'zod';
import { FIELD_MESSAGES } from './plain-english.js';
import { idText } from './text.js';

/**
 * What a fund's name and a share of money over funds look like, shared by the funds' own
 * contracts (funds.ts) and the rules of DC money (dc-money-rules.ts), which funds.ts reads its
 * annual charge from: kept apart so that neither imports the other back.
 */

/** The longest name a fund may have. */
export const MAX_FUND_NAME = 200;

/** The most lines a fund choice or a switch may have. */
export const MAX_PERCENT_LINES = 50;

/**
 * Money shared over the scheme's funds (docs/decisions/0127-dc-money.md): whole percentages, each
 * fund once, summing to exactly 100. A member's fund choice is made of these lines, and so is a
 * switch of what the member holds (src/contracts/dc-money-rules.ts), so the two can never be held
 * to different rules.
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
