import { z } from 'zod';
import { BREACH_STATUSES, DATA_CATEGORIES, RISKS_TO_PEOPLE } from './data-breach-rules.js';
import { pageQuery } from './pages.js';
import { idText, text } from './text.js';

/**
 * The personal-data breach register as the API reads and answers it
 * (docs/decisions/0138-personal-data-breaches.md; rules: data-breach-rules.ts).
 */

/** An instant with its offset, `2026-01-09T10:15:00Z` or `2026-01-09T10:15:00+00:00`. */
export const instant = text({ max: 40, trim: false }).pipe(
  z.iso.datetime({ offset: true, error: 'Enter a date and time' }),
);

const title = text({ max: 200 }).min(1, 'Give the breach a short title');
const description = text({ max: 4000, multiline: true }).min(
  1,
  'Say what happened and what it affects',
);
const categoriesOfData = z
  .array(z.enum(DATA_CATEGORIES, { error: 'Choose a kind of personal data from the list' }), {
    error: 'Choose the kinds of personal data involved',
  })
  .min(1, 'Choose at least one kind of personal data involved')
  .max(DATA_CATEGORIES.length, 'Choose each kind of personal data once')
  .refine((list) => new Set(list).size === list.length, 'Choose each kind of personal data once');
const approximateMembers = z
  .number({ error: 'Enter how many people are affected, roughly, as a whole number' })
  .int('Enter how many people are affected, roughly, as a whole number')
  .min(0, 'Enter how many people are affected, roughly, as a whole number')
  .max(100_000_000, 'Enter how many people are affected, roughly, as a whole number');
const schemeIds = z
  .array(idText, { error: 'Give the schemes affected as a list' })
  .max(100, 'Name at most 100 schemes')
  .refine((list) => new Set(list).size === list.length, 'Name each scheme once');
const riskToPeople = z.enum(RISKS_TO_PEOPLE, {
  error: 'Choose how likely the breach is to result in a risk to people',
});

export const dataBreachInput = z.object({
  title,
  description,
  /** When the firm became aware of the breach: the 72 hours run from here (Art. 33(1)). */
  becameAwareAt: instant,
  /** When the breach happened, where known: never after the firm became aware of it. */
  occurredAt: instant.nullable().optional(),
  categoriesOfData,
  approximateMembers,
  /** The firm's schemes whose members' data is involved, where any. */
  schemeIds: schemeIds.optional(),
  riskToPeople,
});
export type DataBreachInput = z.infer<typeof dataBreachInput>;

/** The assessment, changed while the breach is not closed; the instant of awareness is fixed. */
export const dataBreachUpdate = z.object({
  title: title.optional(),
  description: description.optional(),
  occurredAt: instant.nullable().optional(),
  categoriesOfData: categoriesOfData.optional(),
  approximateMembers: approximateMembers.optional(),
  schemeIds: schemeIds.optional(),
  riskToPeople: riskToPeople.optional(),
});
export type DataBreachUpdate = z.infer<typeof dataBreachUpdate>;

export const dpcNotificationInput = z.object({
  notifiedAt: instant,
  /** The Commission's reference for the notification, where it gave one. */
  reference: text({ max: 200 })
    .min(1, 'Enter the Commission’s reference, or leave it out')
    .optional(),
  /** Required when notified after the deadline: the reasons for the delay (Art. 33(1)). */
  delayReason: text({ max: 2000, multiline: true })
    .min(1, 'Give the reasons for the delay, or leave it out')
    .optional(),
});
export type DpcNotificationInput = z.infer<typeof dpcNotificationInput>;

export const membersToldInput = z.object({
  toldAt: instant,
  how: text({ max: 1000, multiline: true }).min(1, 'Say how the people affected were told'),
});
export type MembersToldInput = z.infer<typeof membersToldInput>;

export const dataBreachClose = z.object({
  /** What was found and done; for a breach not notified, why it was unlikely to risk people (Art. 33(5)). */
  outcome: text({ max: 4000, multiline: true }).min(1, 'Say what was found and done'),
});
export type DataBreachClose = z.infer<typeof dataBreachClose>;

export const dataBreachQuery = pageQuery;
export type DataBreachQuery = z.infer<typeof dataBreachQuery>;

export const breachClockView = z.object({
  /** True while the Commission is still to be told; the figures are measured to now. */
  running: z.boolean(),
  hoursLeft: z.number().int(),
  overdue: z.boolean(),
  hoursOverdue: z.number().int(),
  /** The clock in words (clockInWords). */
  words: z.string(),
});

export const dataBreachView = z.object({
  id: z.string(),
  brokerId: z.string(),
  title: z.string(),
  description: z.string(),
  occurredAt: z.string().nullable(),
  becameAwareAt: z.string(),
  categoriesOfData: z.array(z.enum(DATA_CATEGORIES)),
  approximateMembers: z.number().int(),
  schemeIds: z.array(z.string()),
  riskToPeople: z.enum(RISKS_TO_PEOPLE),
  /** becameAwareAt plus exactly 72 hours. */
  dpcDeadlineAt: z.string(),
  dpcNotifiable: z.boolean(),
  membersToBeTold: z.boolean(),
  status: z.enum(BREACH_STATUSES),
  dpcNotifiedAt: z.string().nullable(),
  dpcReference: z.string().nullable(),
  delayReason: z.string().nullable(),
  membersToldAt: z.string().nullable(),
  membersToldHow: z.string().nullable(),
  closedAt: z.string().nullable(),
  outcome: z.string().nullable(),
  clock: breachClockView,
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DataBreachView = z.infer<typeof dataBreachView>;
