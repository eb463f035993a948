import { addDays, dateInWords } from './irish-dates.js';
import { law, productPolicy, type RuleSource } from './rule-sources.js';
import { sameDayMonthsLater } from './scheme-year-rules.js';

/**
 * The retention schedule (docs/decisions/0149-retention-and-erasure.md): how long each class of a
 * member's record is kept, from which event, and on whose authority. No statute sets one period
 * for a pension record: tax records are kept six years after the transactions they record, a
 * pension complaint can reach the Ombudsman six years after the conduct, and benefits are paid for
 * life and to survivors. Erasure (GDPR Art. 17) erases what this schedule no longer requires and
 * refuses the rest with the rule, its source and the day it ends (Art. 17(3)(b) and (e)). Pure
 * functions of the member's standing and "today" (test/gdpr/retention-rules.test.ts); the
 * service, the member page and the erasure job all ask this module.
 */

export const RECORD_CLASSES = [
  'contact_details',
  'identity_and_benefits',
  'financial_records',
  'documents',
] as const;
export type RecordClass = (typeof RECORD_CLASSES)[number];

/** Each class in words, and what of the member's record it holds. */
export const RECORD_CLASS_NAMES: Record<RecordClass, { name: string; holds: string }> = {
  contact_details: {
    name: 'Contact details',
    holds:
      "The member's e-mail address and postal address, their sign-in account, and their dependants' contact details",
  },
  identity_and_benefits: {
    name: 'Identity and benefits',
    holds:
      "Name, date of birth, PPS number, salary, the history of the member's status, payments out and dependants",
  },
  financial_records: {
    name: 'Financial records',
    holds: 'Contributions and their corrections, fund choices, units bought, switched and sold',
  },
  documents: {
    name: 'Documents about the member',
    holds: 'Statements and other documents issued to or about the member',
  },
};

/** Years a record is kept after the event that starts its period. */
export const TAX_RECORD_YEARS = 6;
export const COMPLAINT_YEARS = 6;

export const RETENTION_RULES = {
  /** Active and deferred members are sent a benefit statement every year. */
  contactWhileMember: law('S.I. No. 128 of 2021 reg. 31'),
  contactOncePaidOut: productPolicy(
    'Once every benefit has been paid, nothing more is sent to the member: their contact details are erased when they ask',
  ),
  benefitPayable: productPolicy(
    "A benefit not yet paid in full, a pension in payment for life, or a survivor's pension after it: the record it is worked out from is kept while the service cannot show the last payment was made",
  ),
  complaints: law('Financial Services and Pensions Ombudsman Act 2017 s.51'),
  taxRecords: law('Taxes Consolidation Act 1997 s.886(4)'),
  erasureRefused: law('GDPR Art. 17(3)(b)'),
  restricted: law('GDPR Art. 18(1)'),
} as const satisfies Record<string, RuleSource>;

/** What the schedule needs to know of a member, as the service reads it. */
export interface RetentionFacts {
  status: 'active' | 'deferred' | 'retired' | 'transferred_out' | 'refunded' | 'deceased';
  /** A DB scheme pays a pension for life, and survivors' pensions after it. */
  schemeType: 'DB' | 'DC' | 'PRSA' | 'RAC';
  /** The day of the latest change of status. */
  statusOn: string | null;
  /** Payments out not voided: pending ones hold the member's benefit as still payable. */
  payouts: { status: 'pending' | 'paid'; paidOn: string | null }[];
  /** The latest day of a contribution, unit transaction or switch, if any. */
  lastTransactionOn: string | null;
}

export type RetentionKeep =
  /** Kept with no end day yet: the member is in the scheme or a benefit is still payable. */
  | 'while_payable'
  /** Kept until `keepUntil`, then erased by the daily job. */
  | 'until'
  /** No longer required: erased when the member asks. */
  | 'on_request';

export interface ClassRetention {
  recordClass: RecordClass;
  keep: RetentionKeep;
  /** The last day the class must be kept; null while no end day is known, or none is required. */
  keepUntil: string | null;
  /** Whether an erasure today may erase it. */
  erasableNow: boolean;
  /** The rule in words, with its day where it has one. */
  reason: string;
  source: RuleSource;
}

export interface MemberRetention {
  /** The day every benefit was paid out, or null while one is payable. */
  paidOutOn: string | null;
  classes: ClassRetention[];
  /** The day the whole record may be erased, once known: the latest class's end, the day after. */
  erasableInFullOn: string | null;
}

const latest = (days: (string | null)[]): string | null =>
  days.reduce<string | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);

/**
 * The day every benefit was paid: a refund or transfer out, or a DC retirement or death benefit,
 * with nothing still pending; the latest payment's day, or the change's own day where nothing was
 * paid through the service. A DB retirement or death has no such day: the pension, and a
 * survivor's after it, is paid for life.
 */
export function paidOutOn(facts: RetentionFacts): string | null {
  const leftForGood =
    facts.status === 'refunded' ||
    facts.status === 'transferred_out' ||
    ((facts.status === 'retired' || facts.status === 'deceased') && facts.schemeType !== 'DB');
  if (!leftForGood) return null;
  if (facts.payouts.some((payout) => payout.status === 'pending')) return null;
  return latest(facts.payouts.map((payout) => payout.paidOn)) ?? facts.statusOn;
}

const yearsAfter = (day: string, years: number): string => sameDayMonthsLater(day, years * 12);

/** The schedule applied to one member on `today`. */
export function retentionOf(facts: RetentionFacts, today: string): MemberRetention {
  const paidOut = paidOutOn(facts);
  const whilePayable = (recordClass: RecordClass, source: RuleSource): ClassRetention => ({
    recordClass,
    keep: 'while_payable',
    keepUntil: null,
    erasableNow: false,
    reason:
      paidOut === null && (facts.status === 'active' || facts.status === 'deferred')
        ? 'Kept while the member is in the scheme'
        : 'Kept while a benefit is still to be paid',
    source,
  });
  const until = (
    recordClass: RecordClass,
    keepUntil: string,
    after: string,
    source: RuleSource,
  ): ClassRetention => ({
    recordClass,
    keep: 'until',
    keepUntil,
    erasableNow: today > keepUntil,
    reason:
      today > keepUntil
        ? `Its period ended on ${dateInWords(keepUntil)}`
        : `Kept until ${dateInWords(keepUntil)}: ${after}`,
    source,
  });

  if (paidOut === null) {
    const inScheme = facts.status === 'active' || facts.status === 'deferred';
    return {
      paidOutOn: null,
      erasableInFullOn: null,
      classes: [
        whilePayable(
          'contact_details',
          inScheme ? RETENTION_RULES.contactWhileMember : RETENTION_RULES.benefitPayable,
        ),
        whilePayable('identity_and_benefits', RETENTION_RULES.benefitPayable),
        whilePayable('financial_records', RETENTION_RULES.benefitPayable),
        whilePayable('documents', RETENTION_RULES.benefitPayable),
      ],
    };
  }

  const complaintsEnd = yearsAfter(paidOut, COMPLAINT_YEARS);
  const lastMoney = latest([paidOut, facts.lastTransactionOn]) ?? paidOut;
  const taxEnd = yearsAfter(lastMoney, TAX_RECORD_YEARS);
  const complaintsWhy = `${COMPLAINT_YEARS} years after the last payment out, within which a complaint can reach the Ombudsman`;
  const classes: ClassRetention[] = [
    {
      recordClass: 'contact_details',
      keep: 'on_request',
      keepUntil: null,
      erasableNow: true,
      reason: 'No longer needed: every benefit has been paid',
      source: RETENTION_RULES.contactOncePaidOut,
    },
    until('identity_and_benefits', complaintsEnd, complaintsWhy, RETENTION_RULES.complaints),
    until(
      'financial_records',
      taxEnd,
      `${TAX_RECORD_YEARS} years after the last transaction, as tax records are kept`,
      RETENTION_RULES.taxRecords,
    ),
    until('documents', complaintsEnd, complaintsWhy, RETENTION_RULES.complaints),
  ];
  const lastKept = latest(classes.map((entry) => entry.keepUntil));
  return {
    paidOutOn: paidOut,
    classes,
    erasableInFullOn: lastKept === null ? today : addDays(lastKept, 1),
  };
}

/** What an erasure on `today` may do: erase everything, only the contact details, or nothing. */
export type ErasureScope = 'member' | 'contact_details' | 'none';

export function erasureScopeOf(retention: MemberRetention): ErasureScope {
  if (retention.classes.every((entry) => entry.erasableNow)) return 'member';
  if (retention.classes.some((entry) => entry.erasableNow)) return 'contact_details';
  return 'none';
}

/**
 * The refusal an erasure gives for what it keeps, in words: each class kept, why, and until when
 * (GDPR Art. 17(3)(b): a legal obligation, or the establishment or defence of legal claims).
 */
export function keptInWords(retention: MemberRetention): string {
  return retention.classes
    .filter((entry) => !entry.erasableNow)
    .map((entry) => `${RECORD_CLASS_NAMES[entry.recordClass].name}: ${entry.reason}`)
    .join('; ');
}
