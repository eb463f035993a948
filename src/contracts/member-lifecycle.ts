import { z } from 'zod';
import {
  LEAVING_OPTIONS,
  LIFECYCLE_STATUSES,
  STATUS_CHANGE_KINDS,
} from './member-lifecycle-rules.js';
import { isoDate, memberEmail } from './members.js';
import { cents } from './money.js';
import { phoneNumber, text } from './text.js';

/**
 * The shapes of a member's lifecycle on the API (docs/decisions/0135-members-lifecycle.md):
 * leaving, the leaver's choice, retirement, transfer out, death, rejoining and the correction that
 * undoes the latest change. The rules are in member-lifecycle-rules.ts.
 */

export const leaveInput = z.strictObject({ leftOn: isoDate });
export type LeaveInput = z.infer<typeof leaveInput>;

export const rejoinInput = z.strictObject({ rejoinedOn: isoDate });
export type RejoinInput = z.infer<typeof rejoinInput>;

export const retireInput = z.strictObject({ retiredOn: isoDate });
export type RetireInput = z.infer<typeof retireInput>;

/** A preserved benefit kept, or a refund paid from the day given (its units sold from then). */
export const leavingChoiceInput = z.strictObject({
  choice: z.enum(['preserved', 'refund'], {
    error: 'Choose preserved or refund; a transfer out has its own step',
  }),
  on: isoDate,
});
export type LeavingChoiceInput = z.infer<typeof leavingChoiceInput>;

/**
 * The receiving scheme or arrangement. A DB scheme's transfer value is worked out by its actuary
 * and given here; a scheme that holds units pays the value of the member's funds, so it takes none.
 */
export const transferOutInput = z.strictObject({
  transferredOn: isoDate,
  receivingArrangement: text({ max: 200 }).min(1, 'Name the scheme or arrangement receiving it'),
  amountCents: cents.optional(),
});
export type TransferOutInput = z.infer<typeof transferOutInput>;

/** Someone to contact about a member's death benefits. */
export const dependantInput = z.strictObject({
  name: text({ max: 200 }).min(1, 'Give the dependant’s name'),
  relationship: text({ max: 100 }).min(1, 'Say how they were related to the member'),
  phone: phoneNumber.nullable().optional(),
  email: memberEmail.nullable().optional(),
  address: text({ max: 500, multiline: true }).nullable().optional(),
});
export type DependantInput = z.infer<typeof dependantInput>;

export const deathInput = z.strictObject({
  diedOn: isoDate,
  dependants: z.array(dependantInput).max(10, 'At most 10 dependants').default([]),
});
export type DeathInput = z.infer<typeof deathInput>;

export const statusCorrectionInput = z.strictObject({
  reason: text({ max: 500, multiline: true }).min(1, 'Say why the change is being undone'),
});
export type StatusCorrectionInput = z.infer<typeof statusCorrectionInput>;

const service = z.object({ months: z.number().int(), days: z.number().int(), inWords: z.string() });

const source = z.object({ label: z.string(), citation: z.string() });

export const statusChangeView = z.object({
  id: z.string(),
  kind: z.enum(STATUS_CHANGE_KINDS),
  fromStatus: z.enum(LIFECYCLE_STATUSES),
  toStatus: z.enum(LIFECYCLE_STATUSES),
  on: z.string(),
  receivingArrangement: z.string().nullable(),
  reason: z.string().nullable(),
  /** The change a correction undid. */
  correctsId: z.string().nullable(),
  /** Undone by a later correction. */
  corrected: z.boolean(),
  createdAt: z.string(),
});
export type StatusChangeView = z.infer<typeof statusChangeView>;

export const PAYOUT_KINDS = ['refund', 'transfer_out', 'benefit'] as const;
export type PayoutKind = (typeof PAYOUT_KINDS)[number];

/** Each payout in words, on the pages. */
export const PAYOUT_KIND_NAMES: Record<PayoutKind, string> = {
  refund: 'Refund of contributions',
  transfer_out: 'Transfer out',
  benefit: 'Retirement benefit',
};

/** Where a payout stands, in words. */
export const PAYOUT_STATUS_NAMES: Record<'pending' | 'paid', string> = {
  pending: 'Waiting for the units to be sold',
  paid: 'Paid',
};

export const payoutView = z.object({
  id: z.string(),
  kind: z.enum(PAYOUT_KINDS),
  /** The day the member's units are sold from (their first prices on or after it). */
  fromOn: z.string(),
  /** `pending` while units wait for a price; `paid` once sold, or at once where none are held. */
  status: z.enum(['pending', 'paid']),
  /** What the member's funds were worth on `fromOn`, at the latest prices; null in a DB scheme. */
  valueAtDateCents: z.number().int().nullable(),
  /** What the sale of the member's units came to, or the amount given for a DB scheme. */
  paidCents: z.number().int().nullable(),
  paidOn: z.string().nullable(),
  /** A refund's parts. */
  refund: z
    .object({
      ownContributionsCents: z.number().int(),
      grossCents: z.number().int(),
      taxCents: z.number().int(),
      netCents: z.number().int(),
    })
    .nullable(),
});
export type PayoutView = z.infer<typeof payoutView>;

export const dependantView = z.object({
  id: z.string(),
  name: z.string(),
  relationship: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
});

/** `GET /api/members/:id/lifecycle`, and the answer of every change. */
export const lifecycleView = z.object({
  memberId: z.string(),
  status: z.enum(LIFECYCLE_STATUSES),
  /** The day of the latest change; null when the member has been as they are since joining. */
  statusOn: z.string().nullable(),
  qualifyingService: service,
  /** While the member is deferred and has not chosen or been paid out: what they may do. */
  leaving: z
    .object({
      leftOn: z.string(),
      preservationEntitled: z.boolean(),
      options: z.array(
        z.object({ option: z.enum(LEAVING_OPTIONS), name: z.string(), why: z.string() }),
      ),
      chosen: z.enum(LEAVING_OPTIONS).nullable(),
      sources: z.array(source),
    })
    .nullable(),
  history: z.array(statusChangeView),
  payouts: z.array(payoutView),
  /** Staff of the firm only: the people to contact about a death. */
  dependants: z.array(dependantView).nullable(),
});
export type LifecycleView = z.infer<typeof lifecycleView>;
