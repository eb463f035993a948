import { z } from 'zod';
import { memberPortalAccount } from './accounts.js';
import { contributionView, paidIn, period } from './contributions.js';
import { fundChoiceView, fundView } from './funds.js';
import {
  holdingsView,
  memberTransactionView,
  switchView,
  valueHistoryView,
} from './investments.js';
import { lifecycleView } from './member-lifecycle.js';
import { memberFieldShape, memberView } from './members.js';
import { pageOf } from './pages.js';
import { SCHEME_STATUSES } from './scheme-wind-up.js';
import { statementView } from './statements.js';

/** The member portal: what a member reads and changes about themself. */

/** A member's pension at a glance. */
export const memberSummary = z.object({
  memberId: z.string(),
  name: z.string(),
  /** Its status tells the member page whether anything beneath it still changes (`acceptsChanges`). */
  scheme: z.object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    status: z.enum(SCHEME_STATUSES),
  }),
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

/**
 * What the member page shows on a full load, composed on the server so that the page asks once
 * (docs/decisions/0118-pages-composed-on-the-server.md): `chartFrom` is the first month of the
 * chart's default range, as the browser counts it.
 */
export const memberPageQuery = z.object({ chartFrom: period.optional() });
export type MemberPageQuery = z.infer<typeof memberPageQuery>;

/**
 * The size of the first page of each list the member page shows: a year of contributions of the
 * three kinds fits on two pages; the chart shows the longer view.
 */
export const MEMBER_PAGE_SIZES = {
  fundChoices: 20,
  contributions: 25,
  transactions: 25,
  switches: 5,
} as const;

export const memberPageView = z.object({
  member: memberView,
  summary: memberSummary,
  /** Where the member stands: status, service, a leaver's options, history and payouts. */
  lifecycle: lifecycleView,
  /** The newest fund choices, the one in force marked. */
  fundChoices: pageOf(fundChoiceView),
  /** The scheme's funds, for a new fund choice; null for whoever may not make one. */
  openFunds: z.array(fundView).nullable(),
  /** The first page of the contributions table, newest first. */
  contributions: pageOf(contributionView),
  /** Every contribution from `chartFrom` on (all of them without it), for the chart. */
  chart: z.array(contributionView),
  /**
   * What the member's money is worth and how it moved (docs/decisions/0127-dc-money.md); null for
   * a scheme whose members hold no units.
   */
  money: z
    .object({
      holdings: holdingsView,
      valueHistory: valueHistoryView,
      /** The first page of the unit movements, newest first. */
      transactions: pageOf(memberTransactionView),
      /** The newest switches. */
      switches: pageOf(switchView),
    })
    .nullable(),
  /**
   * The member's Pension Benefit Statements, the latest first: every one made to staff, those
   * issued to the member (docs/decisions/0141-pension-benefit-statements.md); null for whoever
   * may not list them.
   */
  statements: z.array(statementView).nullable(),
  /**
   * Whether the member has an account for the member portal, and its state; `account` is null when
   * none was made. Null for whoever may not list the employer's accounts.
   */
  portalAccount: z.object({ account: memberPortalAccount.nullable() }).nullable(),
});
export type MemberPageView = z.infer<typeof memberPageView>;
