import { z } from 'zod';
import { importIssue } from './imports.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';

/**
 * The shapes of DC money on the API (docs/decisions/0127-dc-money.md): prices, holdings, the unit
 * ledger, switches and the trustees' view of a scheme's funds. Money is whole cents; units and
 * unit prices are decimal strings with 6 places (`"1.234500"`), never JSON numbers. The rules
 * they follow are in dc-money-rules.ts.
 */

export {
  type FundPricesInput,
  fundPricesInput,
  type SwitchInput,
  switchInput,
} from './dc-money-rules.js';

/** Every kind of movement of a member's units; the features that pay out write the last four. */
export const MEMBER_TRANSACTION_KINDS = [
  'contribution',
  'switch_out',
  'switch_in',
  'charge',
  'transfer_in',
  'transfer_out',
  'refund',
  'benefit',
] as const;
export type MemberTransactionKind = (typeof MEMBER_TRANSACTION_KINDS)[number];

/** What a member reads each kind as. */
export const MEMBER_TRANSACTION_KIND_LABELS: Record<MemberTransactionKind, string> = {
  contribution: 'Contribution invested',
  switch_out: 'Switched out',
  switch_in: 'Switched in',
  charge: 'Annual management charge',
  transfer_in: 'Transfer in',
  transfer_out: 'Transfer out',
  refund: 'Refund',
  benefit: 'Benefit paid',
};

/** A number of units or a unit price: a decimal with 6 places, `"12.345600"`. */
const decimal6 = z.string();

/**
 * What a request of prices did, price by price: `recorded` for a day that had none, `unchanged`
 * for the same price again, `corrected` for a different price for a day that had one, and
 * `replayed` the members whose ledger a corrected price had been used in, and was replayed.
 */
export const fundPricesRecorded = z.object({
  recorded: z.number().int(),
  unchanged: z.number().int(),
  corrected: z.number().int(),
  replayed: z.number().int(),
});
export type FundPricesRecorded = z.infer<typeof fundPricesRecorded>;

/** A fund's prices are read a year at most at a time. */
export const MAX_PRICE_DAYS = 366;

/** `?from=&to=`: the last year to today when left out. */
export const fundPriceQuery = z.object({ from: isoDate.optional(), to: isoDate.optional() });
export type FundPriceQuery = z.infer<typeof fundPriceQuery>;

export const fundPriceList = z.object({
  fundId: z.string(),
  from: z.string(),
  to: z.string(),
  /** The prices in force, oldest first; `corrected` when one replaced an earlier price. */
  items: z.array(z.object({ on: z.string(), price: decimal6, corrected: z.boolean() })),
});
export type FundPriceList = z.infer<typeof fundPriceList>;

/** 400 of a prices file: every problem by its line (the heading row is line 1), all at once. */
export const fundPriceFileRejection = z.object({
  error: z.string(),
  issueCount: z.number().int().optional(),
  issues: z
    .array(
      z.union([importIssue, z.object({ path: z.string(), code: z.string(), message: z.string() })]),
    )
    .optional(),
});

/** `?on=YYYY-MM-DD`: today when left out; never after today. */
export const onDayQuery = z.object({ on: isoDate.optional() });
export type OnDayQuery = z.infer<typeof onDayQuery>;

/** Units of a fund on a day, at its latest price on or before it, and what they are worth. */
const fundValue = z.object({
  fundId: z.string(),
  fundName: z.string(),
  units: decimal6,
  price: decimal6,
  priceOn: z.string(),
  valueCents: z.number().int(),
});

/** A member's units in each fund on a day, at the latest price on or before it. */
export const holdingsView = z.object({
  on: z.string(),
  /** Everything: the funds' values, the money waiting to be invested and the money switching. */
  valueCents: z.number().int(),
  funds: z.array(fundValue),
  /** Money received by the day and not yet invested by it. */
  uninvestedCents: z.number().int(),
  /** Money sold out of funds by a switch and not yet bought into its new funds. */
  switchingCents: z.number().int(),
  /** The member has no fund choice in force: their money goes to the scheme's default fund. */
  defaultFund: z.boolean(),
  /** The member has no fund choice and the scheme no default fund: their money waits. */
  needsFund: z.boolean(),
});
export type HoldingsView = z.infer<typeof holdingsView>;

/**
 * `?from=YYYY-MM-DD`: where a member's value history starts; two years before today when left
 * out, and never before the member's first movement.
 */
export const valueHistoryQuery = z.object({ from: isoDate.optional() });
export type ValueHistoryQuery = z.infer<typeof valueHistoryQuery>;

/** The most points a value history answers: ten years of month ends, or longer ones spaced out. */
export const MAX_VALUE_POINTS = 120;

/**
 * What a member's pension was worth at each month end from `from`, and today, beside the money
 * paid in by then: the line a member reads their pension's growth from.
 */
export const valueHistoryView = z.object({
  from: z.string(),
  to: z.string(),
  points: z.array(
    z.object({
      on: z.string(),
      /** As `holdingsView.valueCents` on that day. */
      valueCents: z.number().int(),
      /** Money received for the member by that day, corrections included. */
      paidInCents: z.number().int(),
    }),
  ),
});
export type ValueHistoryView = z.infer<typeof valueHistoryView>;

/** One movement of the ledger; money and units into the member's funds positive, out negative. */
export const memberTransactionView = z.object({
  id: z.string(),
  kind: z.enum(MEMBER_TRANSACTION_KINDS),
  fundId: z.string().optional(),
  fundName: z.string().optional(),
  /** The day it was dealt: the day of the price it used. */
  on: z.string(),
  units: decimal6.optional(),
  price: decimal6.optional(),
  amountCents: z.number().int(),
});
export type MemberTransactionView = z.infer<typeof memberTransactionView>;

export const memberTransactionQuery = pageQuery;
export type MemberTransactionQuery = z.infer<typeof memberTransactionQuery>;

/** A switch still pending when its member died is cancelled (docs/decisions/0135-members-lifecycle.md). */
export const SWITCH_STATUSES = ['pending', 'completed', 'cancelled'] as const;

export const switchView = z.object({
  id: z.string(),
  memberId: z.string(),
  status: z.enum(SWITCH_STATUSES),
  requestedOn: z.string(),
  /** The day of the switch's last purchase; null while pending. */
  completedOn: z.string().nullable(),
  to: z.array(z.object({ fundId: z.string(), fundName: z.string(), percent: z.number().int() })),
});
export type SwitchView = z.infer<typeof switchView>;

export const switchListQuery = pageQuery;
export type SwitchListQuery = z.infer<typeof switchListQuery>;

/** The trustees' view: the units all members hold in each fund of a scheme, and their value. */
export const fundAssetsView = z.object({
  on: z.string(),
  funds: z.array(
    fundValue.extend({
      /** Members holding units of the fund. */
      members: z.number().int(),
    }),
  ),
  uninvestedCents: z.number().int(),
  switchingCents: z.number().int(),
  /** The funds' values, the money waiting to be invested and the money switching. */
  totalCents: z.number().int(),
});
export type FundAssetsView = z.infer<typeof fundAssetsView>;
