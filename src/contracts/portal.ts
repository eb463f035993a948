import { z } from 'zod';
import { paidIn } from './contributions.js';
import { memberFieldShape } from './members.js';

/** The member portal: what a member reads and changes about themself. */

/** A member's pension at a glance. */
export const memberSummary = z.object({
  memberId: z.string(),
  name: z.string(),
  scheme: z.object({ id: z.string(), name: z.string(), type: z.string() }),
  employer: z.object({ id: z.string(), name: z.string() }),
  /** Everything paid in, with every correction applied. */
  allTime: paidIn,
  /** The Irish tax year is the calendar year (Taxes Consolidation Act 1997, s.1(1)). */
  taxYear: paidIn.extend({ year: z.number().int() }),
  /** The latest pay period with a contribution, `YYYY-MM`, or null. */
  lastPeriod: z.string().nullable(),
});
export type MemberSummary = z.infer<typeof memberSummary>;

/** What a member may change about themself: where to reach them. */
export const contactChange = z
  .object({ email: memberFieldShape.email, address: memberFieldShape.address })
  .refine((change) => change.email !== undefined || change.address !== undefined, {
    message: 'Enter an e-mail address or a postal address to change',
  });
export type ContactChange = z.infer<typeof contactChange>;

export const contactView = z.object({
  email: z.string().nullable(),
  address: z.string().nullable(),
});
