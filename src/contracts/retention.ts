import { z } from 'zod';
import { dataRequestView } from './data-requests.js';
import { RECORD_CLASSES } from './retention-rules.js';
import { RULE_LABELS } from './rule-sources.js';
import { text } from './text.js';

/**
 * A member's retention, restriction and erasure as the API answers them
 * (docs/decisions/0149-retention-and-erasure.md; rules: retention-rules.ts).
 */

const classRetentionView = z.object({
  recordClass: z.enum(RECORD_CLASSES),
  /** The class in words, and what of the record it holds. */
  name: z.string(),
  holds: z.string(),
  keep: z.enum(['while_payable', 'until', 'on_request']),
  keepUntil: z.string().nullable(),
  erasableNow: z.boolean(),
  reason: z.string(),
  source: z.object({ label: z.enum(RULE_LABELS), citation: z.string() }),
});

export const restrictionView = z.object({
  reason: z.string(),
  restrictedOn: z.string(),
});

export const memberRetentionView = z.object({
  memberId: z.string(),
  /** The day every benefit was paid, or null while one is payable. */
  paidOutOn: z.string().nullable(),
  /** The first day the whole record may be erased, once known. */
  erasableInFullOn: z.string().nullable(),
  classes: z.array(classRetentionView),
  /** The restriction in force (GDPR Art. 18), if any: the retention job leaves the member alone. */
  restriction: restrictionView.nullable(),
  /** What was erased of the member so far, the earliest first. */
  erasures: z.array(
    z.object({
      scope: z.enum(['member', 'contact_details']),
      trigger: z.enum(['request', 'retention_ended']),
      erasedAt: z.string(),
    }),
  ),
});
export type MemberRetentionView = z.infer<typeof memberRetentionView>;

/** A restriction of a member's data, with the reason: what is disputed, or the objection. */
export const restrictionInput = z.object({
  reason: text({ max: 1000, multiline: true }).min(
    1,
    'Say what is disputed, or what the member objected to',
  ),
});
export type RestrictionInput = z.infer<typeof restrictionInput>;

/**
 * An erasure request carried out: what was erased (the whole record, the contact details, or
 * nothing), each class with why it was kept or erased, and the request as it now stands, completed
 * or, where everything must be kept, refused with the rule.
 */
export const erasureAnswer = z.object({
  erased: z.enum(['member', 'contact_details', 'none']),
  classes: z.array(classRetentionView),
  request: dataRequestView,
});
export type ErasureAnswer = z.infer<typeof erasureAnswer>;
