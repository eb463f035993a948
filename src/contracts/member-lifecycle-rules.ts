import { addDays, daysInMonth } from './irish-dates.js';
import { guidance, law, productPolicy, type RuleSource } from './rule-sources.js';

/**
 * The rules of a member's life in a scheme (docs/decisions/0135-members-lifecycle.md): leaving
 * service and what a leaver may do, the tax on a refund of contributions. The server applies
 * them, and the browser shows the same answers from the same code.
 */

const POLICY = 'This service’s reading, in docs/decisions/0135-members-lifecycle.md';

/** Each rule with its source, and what it says in words for the pages. */
export const LIFECYCLE_RULES = {
  preservation: {
    ...law('Pensions Act 1990 s.28 (Part III, preservation of benefits)'),
    says: 'A member whose service ends after at least 2 years of qualifying service is entitled to a preserved benefit, and is not refunded their contributions instead.',
  },
  transfer: {
    ...law('Pensions Act 1990 s.34'),
    says: 'A member entitled to a preserved benefit may have its value transferred to another scheme or arrangement.',
  },
  refund: {
    ...guidance('The scheme’s rules, as the Revenue Pensions Manual describes refunds'),
    says: 'A member who leaves with less than 2 years of qualifying service may be refunded their own contributions, less tax, where the scheme’s rules allow it; otherwise the scheme keeps a benefit for them.',
  },
  refundTax: {
    ...law('Taxes Consolidation Act 1997 s.780'),
    says: 'Tax at the standard rate (20% in 2026) is deducted from a refund of a member’s own contributions before it is paid.',
  },
  serviceCounted: {
    ...productPolicy(POLICY),
    says: 'Qualifying service is each period of active membership, from the day of joining or rejoining to the day of leaving, both counted, added together since the member was last paid out (a refund or a transfer); 30 days over whole months make a month.',
  },
  personalContracts: {
    ...productPolicy(POLICY),
    says: 'A PRSA or an RAC is the member’s own contract: on leaving the employer it is kept or transferred, never refunded.',
  },
} as const satisfies Record<string, RuleSource & { says: string }>;

/** Qualifying service for preservation: 2 years (Pensions Act 1990 s.28). */
export const PRESERVATION_MONTHS = 24;

/** The standard rate of income tax on a refund of contributions, in basis points (TCA 1997 s.780). */
export const REFUND_TAX_BASIS_POINTS = 2_000;

/** Where a member stands; the day of the latest change is kept beside it. */
export const LIFECYCLE_STATUSES = [
  'active',
  'deferred',
  'retired',
  'transferred_out',
  'refunded',
  'deceased',
] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

/** Each status inside a sentence: "this member is deferred". */
export const MEMBER_STATUS_WORDS: Record<LifecycleStatus, string> = {
  active: 'active',
  deferred: 'deferred',
  retired: 'retired',
  transferred_out: 'transferred out',
  refunded: 'refunded',
  deceased: 'deceased',
};

/** What each change of status is, in the member's history. */
export const STATUS_CHANGE_KINDS = [
  'left',
  'rejoined',
  'refunded',
  'transferred_out',
  'retired',
  'died',
  'preserved',
  'corrected',
] as const;
export type StatusChangeKind = (typeof STATUS_CHANGE_KINDS)[number];

export const STATUS_CHANGE_NAMES: Record<StatusChangeKind, string> = {
  left: 'Left service',
  rejoined: 'Rejoined',
  refunded: 'Refunded contributions',
  transferred_out: 'Transferred out',
  retired: 'Retired',
  died: 'Died',
  preserved: 'Chose a preserved benefit',
  corrected: 'Correction',
};

/** The statuses each change may start from. */
export const CHANGE_FROM: Record<Exclude<StatusChangeKind, 'corrected'>, LifecycleStatus[]> = {
  left: ['active'],
  rejoined: ['deferred', 'refunded', 'transferred_out'],
  preserved: ['deferred'],
  refunded: ['deferred'],
  transferred_out: ['deferred'],
  retired: ['active', 'deferred'],
  died: ['active', 'deferred', 'retired'],
};

/** What each change makes of the member. */
export const CHANGE_TO: Record<Exclude<StatusChangeKind, 'corrected'>, LifecycleStatus> = {
  left: 'deferred',
  rejoined: 'active',
  preserved: 'deferred',
  refunded: 'refunded',
  transferred_out: 'transferred_out',
  retired: 'retired',
  died: 'deceased',
};

/** Whether a member in `status` is still owed a benefit statement (active and deferred). */
export const getsStatements = (status: LifecycleStatus) =>
  status === 'active' || status === 'deferred';

/** Whole months and days of service. */
export interface Service {
  months: number;
  days: number;
}

/**
 * Service from `from` to `to`, both days counted: joining on 1 March 2024 and leaving on
 * 28 February 2026 is 2 years; leaving on 31 January 2026 is 1 year and 11 months.
 */
export function serviceBetween(from: string, to: string): Service {
  const end = addDays(to, 1);
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = end.split('-').map(Number) as [number, number, number];
  let months = (ty - fy) * 12 + (tm - fm);
  let days = td - fd;
  if (days < 0) {
    // Counted from the same day of the month before `end`, or that month's last day if shorter.
    months -= 1;
    const year = tm === 1 ? ty - 1 : ty;
    const month = tm === 1 ? 12 : tm - 1;
    const length = daysInMonth(year, month);
    days = length - Math.min(fd, length) + td;
  }
  return { months, days };
}

/** Periods of service added together: 30 days over whole months make a month. */
export function addService(periods: readonly Service[]): Service {
  let months = 0;
  let days = 0;
  for (const period of periods) {
    months += period.months;
    days += period.days;
  }
  return { months: months + Math.floor(days / 30), days: days % 30 };
}

/** `1 year, 11 months and 3 days`. */
export function serviceInWords(service: Service): string {
  const years = Math.floor(service.months / 12);
  const months = service.months % 12;
  const parts = [
    years > 0 ? `${years} year${years === 1 ? '' : 's'}` : null,
    months > 0 ? `${months} month${months === 1 ? '' : 's'}` : null,
    service.days > 0 || (years === 0 && months === 0)
      ? `${service.days} day${service.days === 1 ? '' : 's'}`
      : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 1
    ? (parts[0] as string)
    : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** What a leaver may choose. */
export const LEAVING_OPTIONS = ['preserved', 'refund', 'transfer'] as const;
export type LeavingOption = (typeof LEAVING_OPTIONS)[number];

export const LEAVING_OPTION_NAMES: Record<LeavingOption, string> = {
  preserved: 'Keep a preserved benefit in the scheme',
  refund: 'A refund of their own contributions, less tax',
  transfer: 'Transfer the value to another scheme or arrangement',
};

export interface LeavingOptions {
  qualifyingService: Service;
  /** Whether the member has the 2 years that entitle them to a preserved benefit. */
  preservationEntitled: boolean;
  options: Array<{ option: LeavingOption; why: string }>;
}

/**
 * What a leaver may do, from their qualifying service, the kind of scheme and whether its rules
 * allow refunds (LIFECYCLE_RULES).
 */
export function leavingOptions(
  service: Service,
  scheme: { type: string; refundsAllowed: boolean },
): LeavingOptions {
  const entitled = service.months >= PRESERVATION_MONTHS;
  const personal = scheme.type === 'PRSA' || scheme.type === 'RAC';
  if (personal) {
    return {
      qualifyingService: service,
      preservationEntitled: entitled,
      options: [
        { option: 'preserved', why: LIFECYCLE_RULES.personalContracts.says },
        { option: 'transfer', why: LIFECYCLE_RULES.personalContracts.says },
      ],
    };
  }
  if (entitled) {
    return {
      qualifyingService: service,
      preservationEntitled: true,
      options: [
        { option: 'preserved', why: LIFECYCLE_RULES.preservation.says },
        { option: 'transfer', why: LIFECYCLE_RULES.transfer.says },
      ],
    };
  }
  return {
    qualifyingService: service,
    preservationEntitled: false,
    options: [
      scheme.refundsAllowed
        ? { option: 'refund', why: LIFECYCLE_RULES.refund.says }
        : {
            option: 'preserved',
            why: 'The scheme’s rules do not allow a refund, so the scheme keeps a benefit for the member.',
          },
      { option: 'transfer', why: 'Where the scheme’s rules allow it, as for any leaver.' },
    ],
  };
}

export interface Refund {
  /** The member's own contributions (employee and AVC) paid since they were last paid out. */
  ownContributionsCents: number;
  /** What is refunded before tax: their contributions, or the value of their funds if less. */
  grossCents: number;
  taxCents: number;
  /** What the member is paid. */
  netCents: number;
}

/**
 * A refund of a member's own contributions less tax at the standard rate (LIFECYCLE_RULES.refund,
 * refundTax). In a scheme that holds units the refund is at most the value of the member's funds
 * (`valueCents`), as markets may have fallen; `null` where there is no value to cap it (DB).
 */
export function refundOf(ownContributionsCents: number, valueCents: number | null): Refund {
  const grossCents =
    valueCents === null ? ownContributionsCents : Math.min(ownContributionsCents, valueCents);
  const taxCents = Math.round((Math.max(grossCents, 0) * REFUND_TAX_BASIS_POINTS) / 10_000);
  return {
    ownContributionsCents,
    grossCents: Math.max(grossCents, 0),
    taxCents,
    netCents: Math.max(grossCents, 0) - taxCents,
  };
}

/**
 * Whether a contribution for `period` (`YYYY-MM`) would be dated after the member stopped being
 * active: a member who left, retired, transferred out, was refunded or died on a day takes
 * contributions up to that day's month and none after. A member taken on in such a status without
 * its day is not held to one (docs/decisions/0135-members-lifecycle.md).
 */
export function contributionAfterLeaving(
  member: { status: string; statusOn: string | null },
  period: string,
): boolean {
  return (
    member.status !== 'active' && member.statusOn !== null && period > member.statusOn.slice(0, 7)
  );
}

export const AFTER_LEAVING_MESSAGE =
  'The member is no longer active: a contribution is refused for a month after the one they stopped in';
