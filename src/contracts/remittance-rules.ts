import { type DateStatus, dateStatus, daysBetween } from './governance-rules.js';
import { addDays, dateInWords, lastDayOfMonth, periodInWords } from './irish-dates.js';
import { law, productPolicy, type RuleSource } from './rule-sources.js';

/**
 * Contribution remittance (docs/decisions/0136-contribution-remittance.md): what an employer
 * deducted from pay, or owes as a DC employer's contribution, reaches the scheme within 21 days
 * after the end of the month in which it was deducted (Pensions Act 1990 s.58A). Every figure and
 * every reading of the law lives here; the remittance calendar, the trustees' late-payment report
 * and the compliance duty all ask this module. Pure functions of the months and "today", tested
 * against worked dates (test/contributions/remittance-rules.test.ts).
 */

/** Remitted within this many days after the last day of the month of deduction (s.58A). */
export const REMITTANCE_DAYS_AFTER_MONTH = 21;

/** Where each rule comes from: the law to its section, or this service's reading of it. */
export const REMITTANCE_RULES = {
  remittance: law('Pensions Act 1990 s.58A'),
  whatIsDeducted: productPolicy(
    "Employee and AVC contributions of every scheme, and the employer's own contributions to a DC, PRSA or RAC scheme, are what is remitted; a DB employer's own contributions fund the scheme as a whole and are not counted",
  ),
  monthOfDeduction: productPolicy(
    'A contribution is taken as deducted in the month of its pay period, and corrections to it count in that month: the service keeps no payslip date, only the pay period payroll gave',
  ),
  receivedInFull: productPolicy(
    'A month is received in full once its receipts reach what payroll says was deducted; more than that counts as in full. The day it was received is the day the receipts first reached that amount',
  ),
  byEmployer: productPolicy(
    'An employer remits one sum a month, whichever of its schemes the deductions are for: receipts are recorded against the employer, and each of its schemes answers for the whole',
  ),
  monthsSinceAdded: productPolicy(
    'Only months from the one in which the scheme was added to this service are chased, and only from then is a month with no payment recorded reported missing: the service cannot know what was remitted before it kept the scheme, even where payroll for an earlier month is recorded since. An earlier month not received in full is shown as not chased; a payment recorded as received late is reported whatever its month',
  ),
} as const satisfies Record<string, RuleSource>;

export const REMITTANCE_STATUSES = ['on_time', 'late', 'due', 'missing', 'not_chased'] as const;
export type RemittanceStatus = (typeof REMITTANCE_STATUSES)[number];

/** A month's standing in words: a colour on a page never stands alone. */
export const REMITTANCE_STATUS_LABELS: Record<RemittanceStatus, string> = {
  on_time: 'Received on time',
  late: 'Received late',
  due: 'Not yet due',
  missing: 'Missing: past its due date',
  not_chased: 'Not chased: before this service',
};

/**
 * The first month chased (REMITTANCE_RULES.monthsSinceAdded): the month of the earliest of these
 * days on which a scheme was added to this service, in Ireland. An employer's calendar is chased
 * from its first scheme's month, since each of its schemes answers for the whole
 * (REMITTANCE_RULES.byEmployer); a scheme's duty and late-payment report from its own. Null, with
 * no scheme, when nothing is chased.
 */
export function chasedFrom(addedOn: readonly string[]): string | null {
  const months = addedOn.map(schemeChasedFrom).sort();
  return months[0] ?? null;
}

/** The first month chased for one scheme: the month of the day it was added, that month included. */
export const schemeChasedFrom = (addedOn: string): string => addedOn.slice(0, 7);

/**
 * Whether a month is chased at all, from the first month chased (`chasedFrom`, null for none):
 * the months before it are not (REMITTANCE_RULES.monthsSinceAdded). The remittance calendar and
 * the home pages' due month both ask this.
 */
export function isChased(month: string, chasedFrom: string | null): boolean {
  return chasedFrom !== null && month >= chasedFrom;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A month, `YYYY-MM`, as a count of months, so that months can be added and compared. */
function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

function monthOf(index: number): string {
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1, 2)}`;
}

/** The month `months` after (or, negative, before) `month`. */
export function addToMonth(month: string, months: number): string {
  return monthOf(monthIndex(month) + months);
}

/** The months from `from` to `to`, both included; none when `from` is after `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let index = monthIndex(from); index <= monthIndex(to); index += 1) {
    months.push(monthOf(index));
  }
  return months;
}

/** The month a day falls in, `YYYY-MM`. */
export const monthOfDay = (isoDate: string): string => isoDate.slice(0, 7);

/** The first day of a month, `YYYY-MM-01`. */
export const firstDayOf = (month: string): string => `${month}-01`;

/**
 * When the deductions of `month` are due at the scheme: the 21st day after the month's last day,
 * which is the 21st of the next month (2026-01 by 21 February 2026, 2026-02 by 21 March 2026).
 */
export function remittanceDueOn(month: string): string {
  return addDays(lastDayOfMonth(month), REMITTANCE_DAYS_AFTER_MONTH);
}

/** What is known of one month of an employer: what payroll says, and what arrived. */
export interface RemittanceFacts {
  /** What payroll says was deducted (REMITTANCE_RULES.whatIsDeducted), in cents. */
  expectedCents: number;
  /** Every receipt for the month, in cents. */
  receivedCents: number;
  /** The day the receipts first reached `expectedCents`; null while they have not. */
  fullyReceivedOn: string | null;
  dueOn: string;
}

/**
 * Where a month stands on `today`: received in full by its due day (that day included) is on
 * time, after it late; not yet in full is due until its due day has passed, then missing. More
 * than was expected counts as in full (REMITTANCE_RULES.receivedInFull). Not in full and before
 * the first month chased (`chasedFrom`, null for none), it is not chased, neither due nor
 * missing (REMITTANCE_RULES.monthsSinceAdded).
 */
export function remittanceStatus(
  facts: RemittanceFacts & { month: string },
  today: string,
  chasedFrom: string | null,
): RemittanceStatus {
  const inFull = facts.receivedCents >= facts.expectedCents && facts.fullyReceivedOn !== null;
  if (inFull) return (facts.fullyReceivedOn as string) <= facts.dueOn ? 'on_time' : 'late';
  if (!isChased(facts.month, chasedFrom)) return 'not_chased';
  return today > facts.dueOn ? 'missing' : 'due';
}

/** One receipt as the rules read it. */
export interface ReceiptFacts {
  month: string;
  receivedOn: string;
  amountCents: number;
}

/**
 * The day the receipts first reached `expectedCents`, taking each day's receipts together; null
 * while they have not. With nothing expected, the day of the first receipt.
 */
export function fullyReceivedOn(
  receipts: readonly Pick<ReceiptFacts, 'receivedOn' | 'amountCents'>[],
  expectedCents: number,
): string | null {
  const byDay = new Map<string, number>();
  for (const receipt of receipts) {
    byDay.set(receipt.receivedOn, (byDay.get(receipt.receivedOn) ?? 0) + receipt.amountCents);
  }
  let total = 0;
  for (const day of [...byDay.keys()].sort()) {
    total += byDay.get(day) as number;
    if (total >= expectedCents) return day;
  }
  return null;
}

/**
 * What is known of an employer's remittance, as the database holds it: what payroll says was
 * deducted in each month, and the receipts. The months' standing follows from these and "today".
 */
export interface EmployerRemittanceFacts {
  deducted: readonly { month: string; expectedCents: number }[];
  receipts: readonly ReceiptFacts[];
}

/** The facts of the months from `month` on: what a scheme added in that month answers for. */
export function remittanceFactsSince(
  facts: EmployerRemittanceFacts,
  month: string,
): EmployerRemittanceFacts {
  return {
    deducted: facts.deducted.filter((row) => row.month >= month),
    receipts: facts.receipts.filter((receipt) => receipt.month >= month),
  };
}

/** One month of an employer's remittance, as the calendar and the report show it. */
export interface RemittanceMonth {
  month: string;
  dueOn: string;
  expectedCents: number;
  receivedCents: number;
  /** The day it was received in full; null until it is. */
  receivedOn: string | null;
  status: RemittanceStatus;
}

/**
 * Each month with anything expected or received, oldest first, from what payroll says was
 * deducted (by month) and the receipts: a month with neither is not listed. Months before
 * `chasedFrom` (see chasedFrom) not received in full are `not_chased`.
 */
export function remittanceMonths(
  facts: EmployerRemittanceFacts,
  today: string,
  chasedFrom: string | null,
): RemittanceMonth[] {
  const expected = new Map(facts.deducted.map((row) => [row.month, row.expectedCents]));
  const { receipts } = facts;
  const byMonth = new Map<string, ReceiptFacts[]>();
  for (const receipt of receipts) {
    byMonth.set(receipt.month, [...(byMonth.get(receipt.month) ?? []), receipt]);
  }
  const months = [...new Set([...expected.keys(), ...byMonth.keys()])].sort();
  return months.flatMap((month) => {
    const own = byMonth.get(month) ?? [];
    const expectedCents = expected.get(month) ?? 0;
    const receivedCents = own.reduce((total, receipt) => total + receipt.amountCents, 0);
    if (expectedCents === 0 && receivedCents === 0) return [];
    const dueOn = remittanceDueOn(month);
    const receivedOn = fullyReceivedOn(own, expectedCents);
    const status = remittanceStatus(
      { month, expectedCents, receivedCents, fullyReceivedOn: receivedOn, dueOn },
      today,
      chasedFrom,
    );
    return [{ month, dueOn, expectedCents, receivedCents, receivedOn, status }];
  });
}

/**
 * How many days after its due day a month was received in full, or, not received, how many have
 * passed by `today`; 0 for a month that is on time or not yet due.
 */
export function daysLate(month: RemittanceMonth, today: string): number {
  if (month.status === 'late') return daysBetween(month.dueOn, month.receivedOn as string);
  if (month.status === 'missing') return daysBetween(month.dueOn, today);
  return 0;
}

/** The compliance duty of remittance on `today`, before it is given its kind and source. */
export interface RemittanceDuty {
  dueOn?: string;
  status: DateStatus;
  reason: string;
}

/**
 * The scheme's remittance duty from its employer's months since the scheme was added
 * (REMITTANCE_RULES.monthsSinceAdded; `chasedFrom`, its month, or null when that is not known and
 * nothing is chased): overdue while any month is missing, named by the earliest; otherwise dated
 * by the next month still to be received in full; otherwise done. A month received late is no
 * longer overdue: it stays in the late-payment report. A month not chased is not counted, as the
 * employer's calendar shows it.
 */
export function remittanceDuty(
  allMonths: readonly RemittanceMonth[],
  today: string,
  chasedFrom: string | null,
): RemittanceDuty {
  const months = allMonths.filter((month) => month.status !== 'not_chased');
  const outstanding = months.filter(
    (month) => month.status === 'missing' || month.status === 'due',
  );
  const missing = outstanding.filter((month) => month.status === 'missing');
  const earliest = (missing.length > 0 ? missing : outstanding)[0];
  if (earliest === undefined) {
    const late = months.filter((month) => month.status === 'late').length;
    return {
      status: 'ok',
      reason:
        months.length === 0
          ? chasedFrom === null
            ? 'No month is chased: the day the scheme was added to this service is not known'
            : `No deductions are recorded for ${periodInWords(chasedFrom)}, the month the scheme was added to this service, or later: months before it are not chased`
          : late === 0
            ? 'Every month’s deductions since the scheme was added were received in full and on time'
            : `Every month’s deductions since the scheme was added were received in full; ${late === 1 ? '1 month was' : `${late} months were`} received late (see the late-payment report)`,
    };
  }
  const name = periodInWords(earliest.month);
  const part = earliest.receivedCents > 0 ? 'received only in part' : 'not received';
  if (earliest.status === 'missing') {
    const others = missing.length - 1;
    return {
      dueOn: earliest.dueOn,
      status: dateStatus(earliest.dueOn, today),
      reason: `The deductions for ${name} were due at the scheme by ${dateInWords(earliest.dueOn)} and are ${part}${others === 0 ? '' : `; ${others === 1 ? '1 later month is' : `${others} later months are`} missing too`}`,
    };
  }
  return {
    dueOn: earliest.dueOn,
    status: dateStatus(earliest.dueOn, today),
    reason: `The deductions for ${name} are ${part === 'not received' ? 'not yet received' : part}: due at the scheme by ${dateInWords(earliest.dueOn)}, ${REMITTANCE_DAYS_AFTER_MONTH} days after the month’s end`,
  };
}
