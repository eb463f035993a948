import { z } from 'zod';
import { dataRequestView } from './data-requests.js';
import { isoDate } from './members.js';
import { MAX_RECIPIENTS, RECTIFIABLE_FIELDS } from './rectification-rules.js';
import { text } from './text.js';

/**
 * A rectification request's completion as the API reads and answers it
 * (docs/decisions/0148-rectification-and-recipients.md; rules: rectification-rules.ts).
 */

/** One recipient of the old data who was told of the correction: an organisation or a role. */
export const recipientTold = z.object({
  name: text({ max: 200 }).min(
    1,
    'Name the recipient: an organisation or a role, such as the employer’s payroll',
  ),
  /** The day they were told: not after today, not before the request was received. */
  toldOn: isoDate,
});

export const rectificationInput = z.object({
  correctedFields: z
    .array(z.enum(RECTIFIABLE_FIELDS, { error: 'Choose a corrected detail from the list' }), {
      error: 'Choose which of the member’s details were corrected',
    })
    .min(1, 'Choose at least one of the member’s details that was corrected')
    .max(RECTIFIABLE_FIELDS.length, 'Choose each corrected detail once')
    .refine((list) => new Set(list).size === list.length, 'Choose each corrected detail once'),
  recipients: z
    .array(recipientTold, { error: 'List the recipients who were told, or none' })
    .max(MAX_RECIPIENTS, `Record at most ${MAX_RECIPIENTS} recipients`),
  note: text({ max: 1000, multiline: true })
    .min(1, 'Write a note of what was done, or leave it out')
    .optional(),
});
export type RectificationInput = z.infer<typeof rectificationInput>;

/** A recipient the service knows had the member's data, with why it says so. */
export const proposedRecipient = z.object({
  name: z.string(),
  basis: z.string(),
});
export type ProposedRecipient = z.infer<typeof proposedRecipient>;

export const rectificationView = z.object({
  request: dataRequestView,
  /** The details named as corrected once completed; empty while the request is open. */
  correctedFields: z.array(z.enum(RECTIFIABLE_FIELDS)),
  /** The recipients recorded as told, in the order given. */
  recipients: z.array(z.object({ name: z.string(), toldOn: z.string() })),
  /** The recipients the service knows of, for the firm to confirm or add to. */
  proposedRecipients: z.array(proposedRecipient),
});
export type RectificationView = z.infer<typeof rectificationView>;
