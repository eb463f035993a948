import { z } from 'zod';
import { text } from './text.js';

/**
 * Why a PPS number is revealed (docs/decisions/0145-a-reason-for-a-pps-reveal.md). The reason's
 * code is what the audit record keeps (`ppsRevealReason`), never the note, which may name people;
 * the note stays with the reveal in the firm's own record of reveals. The list is product policy:
 * the work of an Irish pension administrator that needs the number itself, not "on file".
 */
export const PPS_REVEAL_REASONS = [
  'revenue',
  'transfer',
  'benefit_payment',
  'identity_check',
  'records_correction',
  'member_request',
  'other',
] as const;
export type PpsRevealReason = (typeof PPS_REVEAL_REASONS)[number];

/** Each reason as a person picks it and as the audit log reads it. */
export const PPS_REVEAL_REASON_WORDS: Record<PpsRevealReason, string> = {
  revenue: 'A Revenue matter (tax relief, PAYE or a return)',
  transfer: 'A transfer to or from another scheme or provider',
  benefit_payment: 'Paying a benefit: retirement, a refund or on death',
  identity_check: 'Checking who the member is',
  records_correction: 'Correcting the member’s records',
  member_request: 'The member asked for it',
  other: 'Another reason, given in the note',
};

/** The most a note may say: a line or two, not a file note. */
export const PPS_REVEAL_NOTE_MAX = 300;

/** POST /api/members/:id/pps/reveal: why, and for "Another reason" what it is. */
export const ppsRevealInput = z
  .object({
    reason: z.enum(PPS_REVEAL_REASONS, { error: 'Choose why you need the PPS number' }),
    note: text({
      max: PPS_REVEAL_NOTE_MAX,
      tooLong: `Use at most ${PPS_REVEAL_NOTE_MAX} characters`,
    }).optional(),
  })
  .superRefine((input, context) => {
    if (input.reason === 'other' && !input.note) {
      context.addIssue({
        code: 'custom',
        path: ['note'],
        message: 'Say why you need the PPS number',
      });
    }
  });
export type PpsRevealInput = z.infer<typeof ppsRevealInput>;

/** One reveal of a member's PPS number, as the firm's administrators read them. */
export const ppsRevealView = z.object({
  id: z.string(),
  revealedAt: z.string(),
  /** The name of the account that revealed it, or null once that account is out of reach. */
  revealedBy: z.string().nullable(),
  reason: z.enum(PPS_REVEAL_REASONS),
  note: z.string().nullable(),
});
export type PpsRevealView = z.infer<typeof ppsRevealView>;

export const ppsRevealsView = z.object({ items: z.array(ppsRevealView) });

/** The most recent reveals a member's page lists. */
export const PPS_REVEALS_SHOWN = 50;
