import { z } from 'zod';
import { isoDate } from './members.js';
import { text } from './text.js';

/**
 * Closing a scheme (docs/decisions/0146-schemes-wound-up-not-deleted.md): a scheme with members or
 * records is wound up on a day for a reason, and is read only from then on, its duties ended; only
 * a scheme with neither, made by mistake, is deleted. Product policy: a scheme's records are kept
 * after it ends, as the Pensions Act 1990 and Revenue expect of an administrator, so they are never
 * removed from sight by a click.
 */
export const SCHEME_STATUSES = ['active', 'wound_up'] as const;
export type SchemeStatus = (typeof SCHEME_STATUSES)[number];

export const WIND_UP_REASONS = [
  'employer_ceased',
  'moved_to_another_arrangement',
  'all_benefits_settled',
  'employer_decision',
  'other',
] as const;
export type WindUpReason = (typeof WIND_UP_REASONS)[number];

/** Each reason as a person picks it and reads it on the scheme and in the audit log. */
export const WIND_UP_REASON_WORDS: Record<WindUpReason, string> = {
  employer_ceased: 'The employer ceased trading',
  moved_to_another_arrangement: 'Members moved to another arrangement (a master trust or PRSA)',
  all_benefits_settled: 'Every benefit was paid out or transferred',
  employer_decision: 'The employer decided to end it',
  other: 'Another reason, given in the note',
};

/** POST /api/schemes/:id/wind-up. */
export const schemeWindUpInput = z
  .object({
    woundUpOn: isoDate,
    reason: z.enum(WIND_UP_REASONS, { error: 'Choose why the scheme is wound up' }),
    note: text({ max: 1000, multiline: true, tooLong: 'Use at most 1000 characters' }).optional(),
  })
  .superRefine((input, context) => {
    if (input.reason === 'other' && !input.note) {
      context.addIssue({
        code: 'custom',
        path: ['note'],
        message: 'Say why the scheme is wound up',
      });
    }
  });
export type SchemeWindUpInput = z.infer<typeof schemeWindUpInput>;

/**
 * Whether anything under a scheme may still change: the scheme itself, its members, their
 * contributions, fund choices and switches, its funds and registers. A wound-up scheme's records
 * are kept as they were (docs/decisions/0146-schemes-wound-up-not-deleted.md). The service refuses
 * by it and the web hides what would change by it, so the two never disagree; a scheme read
 * without its status is one made before wind-ups existed, and active.
 */
export function acceptsChanges(scheme: { status?: string | null }): boolean {
  return scheme.status !== 'wound_up';
}

/** What a wound-up scheme answers to any change under it. */
export const WOUND_UP_REFUSAL =
  'This scheme has been wound up: its records are kept as they were and no longer change';

/**
 * Why a scheme may not be deleted, or null when it may: one that never had a member (a removed
 * member counts, and contributions are a member's) was made by mistake and has nothing to keep.
 */
export function schemeDeleteRefusal(scheme: { hasMembers: boolean }): string | null {
  return scheme.hasMembers
    ? 'A scheme that has had members is wound up, not deleted: its records are kept'
    : null;
}
