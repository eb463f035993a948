import { z } from 'zod';
import {
  DATA_REQUEST_CLOCKS,
  DATA_REQUEST_KINDS,
  DATA_REQUEST_STATUSES,
  REFUSAL_CITATIONS,
} from './data-request-rules.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { RECTIFIABLE_FIELDS } from './rectification-rules.js';
import { idText, text } from './text.js';

/**
 * The data-subject requests register as the API reads and answers it
 * (docs/decisions/0137-data-subject-requests.md; rules: data-request-rules.ts).
 */

/**
 * A request as the firm received it from a member, or as a member makes it themselves. The firm's
 * staff give the day it was received; a member's own is received the day they make it, so they
 * leave the day out (or give today's).
 */
export const dataRequestInput = z.object({
  memberId: idText,
  kind: z.enum(DATA_REQUEST_KINDS, {
    error:
      'Choose what the member asked for: access, rectification, erasure, restriction or objection',
  }),
  /** The day the firm received it: not after today, not before the member joined. */
  receivedOn: isoDate.optional(),
});
export type DataRequestInput = z.infer<typeof dataRequestInput>;

/** The reason for an extension: what the person was told, within the first month. */
export const dataRequestExtension = z.object({
  reason: text({ max: 1000, multiline: true }).min(
    1,
    'Say why the request needs more time, as the person was told',
  ),
});
export type DataRequestExtension = z.infer<typeof dataRequestExtension>;

/** A completion, with a note of what was done if the firm keeps one. */
export const dataRequestCompletion = z.object({
  note: text({ max: 1000, multiline: true })
    .min(1, 'Write a note of what was done, or leave it out')
    .optional(),
});
export type DataRequestCompletion = z.infer<typeof dataRequestCompletion>;

/** A refusal: the ground it rests on, from the list, and the reason in words. */
export const dataRequestRefusal = z.object({
  reason: text({ max: 1000, multiline: true }).min(1, 'Say why the request is refused'),
  citation: z.enum(REFUSAL_CITATIONS, {
    error: 'Choose the ground the refusal rests on from the list',
  }),
});
export type DataRequestRefusal = z.infer<typeof dataRequestRefusal>;

/** `?status=` narrows the list to requests in one status. */
export const dataRequestQuery = pageQuery.extend({
  status: z
    .enum(DATA_REQUEST_STATUSES, { error: 'Choose open, extended, completed or refused' })
    .optional(),
});
export type DataRequestQuery = z.infer<typeof dataRequestQuery>;

export const dataRequestView = z.object({
  id: z.string(),
  memberId: z.string(),
  /** The member's name as the register holds it, for the firm's staff who read the list. */
  memberName: z.string(),
  kind: z.enum(DATA_REQUEST_KINDS),
  receivedOn: z.string(),
  /** One month after receipt (Art. 12(3)). */
  originalDueOn: z.string(),
  /** The day the answer is due now: `originalDueOn`, or two months after it once extended. */
  dueOn: z.string(),
  /** Only once extended: the day the extension runs to. */
  extendedTo: z.string().optional(),
  status: z.enum(DATA_REQUEST_STATUSES),
  extensionReason: z.string().nullable(),
  /** The day it was completed or refused. */
  closedOn: z.string().nullable(),
  completionNote: z.string().nullable(),
  refusalReason: z.string().nullable(),
  refusalCitation: z.enum(REFUSAL_CITATIONS).nullable(),
  /** A completed rectification's corrected details (docs/decisions/0148-rectification-and-recipients.md). */
  correctedFields: z.array(z.enum(RECTIFIABLE_FIELDS)).nullable(),
  clock: z.object({
    state: z.enum(DATA_REQUEST_CLOCKS),
    daysLeft: z.number().int().nullable(),
    words: z.string(),
  }),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type DataRequestView = z.infer<typeof dataRequestView>;
