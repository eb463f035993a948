import { numberInWords } from './counts.js';
import { addDays } from './irish-dates.js';
import { law, productPolicy, type RuleSource } from './rule-sources.js';

/**
 * Automatic enrolment readiness (My Future Fund, from 1 January 2026; docs/api.md, "Auto-enrolment
 * readiness"): which employees the State scheme would enrol, which are exempt because they
 * pay into a qualifying arrangement through payroll, and which are in a scheme that falls short
 * of the minimum standard. Every figure, band and citation lives here and nowhere else: the
 * assessment service, its CSV, its PDF and the cost comparison all ask this module. The functions
 * are pure, so each rule is tested on worked cases (test/auto-enrolment/rules.test.ts).
 *
 * Every rule has its source in AE_RULES, labelled law or product policy and cited to the section
 * (docs/decisions/0120-rules-labelled-law-guidance-policy.md): the Automatic Enrolment Retirement
 * Savings System Act 2024 (No. 20 of 2024), and the minimum standards for exempt employments in
 * S.I. No. 637 of 2025, art. 4A and Schedule 1A, inserted by S.I. No. 668 of 2025 from 1 January
 * 2026 (docs/decisions/0068-auto-enrolment-readiness.md).
 *
 * Money is in whole cents and rates in basis points (1.5% = 150), so no rule uses floating point.
 */

const ACT = 'Automatic Enrolment Retirement Savings System Act 2024';
const STANDARDS = 'S.I. No. 637 of 2025, art. 4A and Sch. 1A (inserted by S.I. No. 668 of 2025)';
/** The day the system began: rate year 1 is the calendar year it began in. */
const START = '2026-01-01';

/** Where each rule comes from, and the day it applies from. */
export const AE_RULES = {
  eligibility: { ...law(`${ACT} s.50(2)–(3)`), effectiveFrom: START },
  /**
   * NAERSA sets the pay reference period (s.50(4)); this service reads pay over the same three
   * months as the minimum standard, and says so.
   */
  periodAssessed: {
    ...productPolicy(
      'Pay is read over the three months ending on the day assessed, the period of the minimum standard; NAERSA sets its own pay reference period',
    ),
    effectiveFrom: START,
  },
  contributionRates: { ...law(`${ACT} s.58(1)–(2) and s.61`), effectiveFrom: START },
  earningsCeiling: { ...law(`${ACT} s.58(3)`), effectiveFrom: START },
  exemptEmployment: { ...law(`${ACT} s.51`), effectiveFrom: START },
  minimumStandard: { ...law(STANDARDS), effectiveFrom: START },
  definedBenefit: { ...law(STANDARDS), effectiveFrom: START },
} as const satisfies Record<string, RuleSource & { effectiveFrom: string }>;

/** Employees aged 23 to 59 (both included) on the last day of the pay reference period. */
export const AGE_BAND = { from: 23, to: 59 } as const;
/** Gross pay of at least €20,000 a year, pro-rated to the period assessed. */
export const PAY_THRESHOLD_CENTS_A_YEAR = 2_000_000;
/** Pay above €80,000 a year is ignored for contributions. */
export const EARNINGS_CEILING_CENTS_A_YEAR = 8_000_000;
/** NAERSA assesses the minimum standard over three months (S.I. No. 637 of 2025, Sch. 1A). */
export const WINDOW_MONTHS = 3;

/**
 * The period a shortfall is measured over, in words, wherever one is shown beside a cost a year
 * (the page, its CSV): the window assessed, not a pay period, a month or a year.
 */
export const SHORTFALL_PERIOD = `the ${numberInWords(WINDOW_MONTHS)} months assessed`;

/** Schedule 1A, DC schemes and PRSAs: the employer pays at least the lower of these. */
export const EMPLOYER_MINIMUM = { basisPoints: 150, capCentsAYear: 120_000 } as const;
/** Schedule 1A, DC schemes and PRSAs: employee and employer together at least the lower of these. */
export const TOTAL_MINIMUM = { basisPoints: 350, capCentsAYear: 280_000 } as const;

/**
 * The rate schedule of My Future Fund (s.61), % of gross pay in basis points, by year of the
 * system: year 1 is the calendar year the system began in, 2026.
 */
export interface RateBand {
  fromYear: number;
  /** Null for the last band, which runs on. */
  toYear: number | null;
  employeeBasisPoints: number;
  employerBasisPoints: number;
  stateBasisPoints: number;
}

export const RATE_SCHEDULE: readonly RateBand[] = [
  {
    fromYear: 1,
    toYear: 3,
    employeeBasisPoints: 150,
    employerBasisPoints: 150,
    stateBasisPoints: 50,
  },
  {
    fromYear: 4,
    toYear: 6,
    employeeBasisPoints: 300,
    employerBasisPoints: 300,
    stateBasisPoints: 100,
  },
  {
    fromYear: 7,
    toYear: 9,
    employeeBasisPoints: 450,
    employerBasisPoints: 450,
    stateBasisPoints: 150,
  },
  {
    fromYear: 10,
    toYear: null,
    employeeBasisPoints: 600,
    employerBasisPoints: 600,
    stateBasisPoints: 200,
  },
];

/** How many years the cost comparison covers: to the first year at the final rates. */
export const COST_COMPARISON_YEARS = 10;

/** The calendar year of year 1 of the rate schedule: 2026. */
export const FIRST_RATE_YEAR = Number(START.slice(0, 4));

/** The calendar year a year of the rate schedule falls in: year 1 is 2026, year 10 is 2035. */
export function calendarYearOf(rateYear: number): number {
  return FIRST_RATE_YEAR + rateYear - 1;
}

export function rateForYear(year: number): RateBand {
  const band = RATE_SCHEDULE.find(
    (candidate) =>
      year >= candidate.fromYear && (candidate.toYear === null || year <= candidate.toYear),
  );
  if (!band) throw new RangeError(`no rate band for year ${year}`);
  return band;
}

/**
 * A year, counted in the units pay periods are measured in: a weekly period is 1/52 of a year,
 * a fortnightly one 1/26, a calendar month 1/12 and any other period its days over 365. 56,940 is
 * the least common multiple of 52, 26, 12 and 365, so every period is a whole number of units and
 * every pro-rated figure is exact until its one final rounding.
 */
export const YEAR_UNITS = 56_940;

const DAY_MS = 86_400_000;
const dayNumber = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;

/** Days from start to end, both included. */
export function daysInPeriod(start: string, end: string): number {
  return dayNumber(end) - dayNumber(start) + 1;
}

const isWholeMonth = (start: string, end: string) =>
  start.slice(8) === '01' &&
  addDays(end, 1).slice(8) === '01' &&
  start.slice(0, 7) === end.slice(0, 7);

/** The share of a year a pay period stands for, in YEAR_UNITS. */
export function periodYearUnits(start: string, end: string): number {
  const days = daysInPeriod(start, end);
  if (days === 7) return YEAR_UNITS / 52;
  if (days === 14) return YEAR_UNITS / 26;
  if (isWholeMonth(start, end)) return YEAR_UNITS / 12;
  return (YEAR_UNITS / 365) * days;
}

/** A figure a year pro-rated to `units` of a year, rounded up to the cent: "at least" this. */
export function proRatedCents(centsAYear: number, units: number): number {
  return Math.ceil((centsAYear * units) / YEAR_UNITS);
}

/** A percentage of pay, in basis points, rounded up to the cent. */
export function shareOfPay(payCents: number, basisPoints: number): number {
  return Math.ceil((payCents * basisPoints) / 10_000);
}

/** The calendar day `months` months before `isoDate`, on the same day or the month's last. */
function monthsBefore(isoDate: string, months: number): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7)) - 1 - months;
  const target = new Date(Date.UTC(year, month, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0));
  const day = Math.min(Number(isoDate.slice(8, 10)), lastDay.getUTCDate());
  target.setUTCDate(day);
  return target.toISOString().slice(0, 10);
}

/**
 * The rolling three-month window ending on `asOf`, both days included: `asOf` 31/03/2026 gives
 * 01/01/2026 to 31/03/2026. A pay period belongs to the window when it ends within it.
 */
export function assessmentWindow(asOf: string): { windowStart: string; windowEnd: string } {
  return { windowStart: addDays(monthsBefore(asOf, WINDOW_MONTHS), 1), windowEnd: asOf };
}

/** Whole years of age on `onDate`; someone born on 29 February turns a year older on 1 March. */
export function ageOn(dateOfBirth: string, onDate: string): number {
  const years = Number(onDate.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return onDate.slice(5) >= dateOfBirth.slice(5) ? years : years - 1;
}

export const AE_STATUSES = [
  'exempt',
  'likely_exempt',
  'below_standard',
  'likely_enrolled',
  'not_eligible',
] as const;
export type AeStatus = (typeof AE_STATUSES)[number];

/** Each status in words, the same on the pages, in the CSV export and in the PDF summary. */
export const AE_STATUS_LABELS: Record<AeStatus, string> = {
  below_standard: 'Below the standard',
  likely_enrolled: 'Likely to be enrolled',
  likely_exempt: 'Likely exempt: confirm payroll reporting',
  exempt: 'Exempt',
  not_eligible: 'Not eligible',
};

/** What each status means for the employer, one line under its count on the pages. */
export const AE_STATUS_MEANINGS: Record<AeStatus, string> = {
  below_standard: 'In a scheme that does not yet meet the standard',
  likely_enrolled: 'My Future Fund would enrol them',
  likely_exempt:
    'Members of a defined benefit scheme with no contribution seen through payroll: confirm that the scheme’s contributions are reported through payroll',
  exempt: 'Their pension contributions through payroll make the employment exempt',
  not_eligible: 'Outside the age band, below the pay threshold, or not paid in the window',
};

/** Why an employee has the status they have: a stable code and its sentence. */
export const AE_REASONS = {
  under_age_band: 'Younger than 23 on the last day of the pay reference period.',
  over_age_band: 'Aged 60 or over on the last day of the pay reference period.',
  pay_below_threshold:
    'Gross pay from this employment is below €20,000 a year for the period. This is an estimate: pay from other employments is not known here and counts towards the threshold.',
  defined_benefit:
    'A member of a defined benefit scheme, which confers a long-term benefit based on continuing employment, with contributions through payroll in the period.',
  defined_benefit_unconfirmed:
    'A member of a defined benefit scheme, but no contribution to it through payroll is seen in the period. Likely exempt: confirm that the scheme’s contributions are reported to Revenue through payroll, which is what makes an employment exempt.',
  meets_minimum_standard:
    'Pays into a qualifying arrangement through payroll at or above the minimum standard.',
  employer_below_minimum:
    'The employer contribution is below the lower of 1.5% of gross pay or €1,200 a year.',
  total_below_minimum:
    'Employee and employer contributions together are below the lower of 3.5% of gross pay or €2,800 a year.',
  zero_contribution:
    'A member of a scheme of this employer, with no contributions through payroll in the period (a 0% contribution).',
  employer_match_depends_on_employee:
    'The employer pays only in pay periods when the employee pays: the employer contribution depends on the employee’s own choice.',
  waiting_period:
    'Joined a scheme of this employer but contributions have not started (a waiting period): enrolled in My Future Fund until they do.',
  prsa_outside_payroll:
    'Has a PRSA paid outside payroll (by personal direct debit), which does not make the employment exempt.',
  no_pension_through_payroll: 'No pension contributions through payroll in the period.',
  no_pay_in_window: 'No pay in the period assessed.',
} as const;
export type AeReason = keyof typeof AE_REASONS;

/**
 * The rule each reason applies, so that a reason is shown with the provision it comes from: the
 * age band and the pay threshold are the Act's eligibility rules (s.50), the period read this
 * service's, the standard and the defined-benefit exception Schedule 1A's, and what does or does
 * not exempt an employment s.51's.
 */
export const AE_RULE_OF_REASON: Record<AeReason, keyof typeof AE_RULES> = {
  under_age_band: 'eligibility',
  over_age_band: 'eligibility',
  pay_below_threshold: 'eligibility',
  no_pay_in_window: 'periodAssessed',
  defined_benefit: 'definedBenefit',
  defined_benefit_unconfirmed: 'exemptEmployment',
  meets_minimum_standard: 'minimumStandard',
  employer_below_minimum: 'minimumStandard',
  total_below_minimum: 'minimumStandard',
  zero_contribution: 'minimumStandard',
  employer_match_depends_on_employee: 'minimumStandard',
  waiting_period: 'exemptEmployment',
  prsa_outside_payroll: 'exemptEmployment',
  no_pension_through_payroll: 'exemptEmployment',
};

/** The source of the rule a reason applies: its label and citation. */
export function reasonSource(reason: AeReason): RuleSource {
  const { label, citation } = AE_RULES[AE_RULE_OF_REASON[reason]];
  return { label, citation };
}

/** What the assessment knows about one employee over one window. */
export interface EmployeeWindowFacts {
  /**
   * The first day of the window. A member who joined on it or later and has paid nothing yet is
   * taken to be in a waiting period: the scheme's own waiting period is not recorded.
   */
  windowStart: string;
  dateOfBirth: string;
  /** The last day of the latest pay period in the window; null when none falls in it. */
  lastPeriodEnd: string | null;
  /** The window's pay periods added together, in YEAR_UNITS. */
  yearUnits: number;
  grossCents: number;
  employeeCents: number;
  employerCents: number;
  /** Pay periods with an employer contribution and none from the employee, and the reverse. */
  periodsEmployerOnly: number;
  periodsEmployeeOnly: number;
  /** Periods in which both the employee and employer paid, and periods neither paid. */
  periodsBoth: number;
  periodsNeither: number;
  /** Payroll lines naming a PRSA with no deduction: a PRSA the employee pays by direct debit. */
  prsaWithoutDeductions: boolean;
  /** Payroll deductions went to a scheme or a PRSA. */
  paysThroughPayroll: boolean;
  /** The membership the payroll matched, by PPS lookup, in this employer's live schemes. */
  membership: { schemeType: string; dateJoined: string } | null;
}

export interface Assessment {
  status: AeStatus;
  reasons: AeReason[];
  /** How far contributions over the window fall short of the standard, when below it. */
  shortfallCents?: number;
  /** The standard's two minimums over the window. */
  employerMinimumCents: number;
  totalMinimumCents: number;
  /** Gross pay over the window up to the pro-rated ceiling. */
  reckonablePayCents: number;
}

/** The minimums of Schedule 1A over a window of `units`, on gross pay capped at the ceiling. */
export function minimumStandard(grossCents: number, units: number) {
  const reckonablePayCents = Math.min(
    grossCents,
    Math.floor((EARNINGS_CEILING_CENTS_A_YEAR * units) / YEAR_UNITS),
  );
  return {
    reckonablePayCents,
    employerMinimumCents: Math.min(
      shareOfPay(reckonablePayCents, EMPLOYER_MINIMUM.basisPoints),
      proRatedCents(EMPLOYER_MINIMUM.capCentsAYear, units),
    ),
    totalMinimumCents: Math.min(
      shareOfPay(reckonablePayCents, TOTAL_MINIMUM.basisPoints),
      proRatedCents(TOTAL_MINIMUM.capCentsAYear, units),
    ),
  };
}

/**
 * One employee over one window (docs/decisions/0068-auto-enrolment-readiness.md):
 * first eligibility (age band, pay threshold), then the arrangement. A DB member paying through
 * payroll is exempt, and one with nothing seen through payroll only likely exempt: s.51 tests the
 * contributions notified through payroll, not membership; pay into a scheme or PRSA through
 * payroll is held to the minimum standard; a scheme member with no contributions is below standard
 * unless still in a waiting period, when the State scheme enrols them; anyone else eligible is
 * likely to be enrolled.
 */
export function assessEmployee(facts: EmployeeWindowFacts): Assessment {
  const standard = minimumStandard(facts.grossCents, facts.yearUnits);
  const answer = (status: AeStatus, reasons: AeReason[], shortfallCents?: number): Assessment => ({
    status,
    reasons,
    ...(shortfallCents === undefined ? {} : { shortfallCents }),
    ...standard,
  });
  if (facts.lastPeriodEnd === null || facts.yearUnits === 0) {
    return answer('not_eligible', ['no_pay_in_window']);
  }
  const age = ageOn(facts.dateOfBirth, facts.lastPeriodEnd);
  const outside: AeReason[] = [];
  if (age < AGE_BAND.from) outside.push('under_age_band');
  if (age > AGE_BAND.to) outside.push('over_age_band');
  if (facts.grossCents < proRatedCents(PAY_THRESHOLD_CENTS_A_YEAR, facts.yearUnits)) {
    outside.push('pay_below_threshold');
  }
  if (outside.length > 0) return answer('not_eligible', outside);

  if (facts.membership?.schemeType === 'DB') {
    return facts.paysThroughPayroll
      ? answer('exempt', ['defined_benefit'])
      : answer('likely_exempt', ['defined_benefit_unconfirmed']);
  }

  if (facts.paysThroughPayroll) {
    const paid = facts.employeeCents + facts.employerCents;
    const employerShort = Math.max(0, standard.employerMinimumCents - facts.employerCents);
    const totalShort = Math.max(0, standard.totalMinimumCents - paid);
    if (employerShort === 0 && totalShort === 0)
      return answer('exempt', ['meets_minimum_standard']);
    const reasons: AeReason[] = [];
    if (employerShort > 0) reasons.push('employer_below_minimum');
    if (totalShort > 0) reasons.push('total_below_minimum');
    if (employerShort > 0 && dependsOnEmployee(facts)) {
      reasons.push('employer_match_depends_on_employee');
    }
    // Whatever the employer adds counts towards the total too: the larger gap closes both.
    return answer('below_standard', reasons, Math.max(employerShort, totalShort));
  }

  if (facts.membership !== null) {
    if (facts.membership.dateJoined >= facts.windowStart) {
      return answer('likely_enrolled', ['waiting_period']);
    }
    const reasons: AeReason[] = ['zero_contribution'];
    if (dependsOnEmployee(facts)) reasons.push('employer_match_depends_on_employee');
    return answer(
      'below_standard',
      reasons,
      Math.max(standard.employerMinimumCents, standard.totalMinimumCents),
    );
  }
  return answer('likely_enrolled', [
    facts.prsaWithoutDeductions ? 'prsa_outside_payroll' : 'no_pension_through_payroll',
  ]);
}

/**
 * What the payroll shows of an employer match: the employer paid only in periods when the
 * employee did, or paid nothing in periods when the employee paid nothing either. The scheme's
 * matching rule itself is not recorded, so this is read from the pattern of the payments.
 */
function dependsOnEmployee(facts: EmployeeWindowFacts): boolean {
  return (
    facts.periodsEmployerOnly === 0 &&
    facts.periodsNeither > 0 &&
    (facts.periodsBoth > 0 || facts.membership !== null)
  );
}

/** One year of the cost comparison: the employer's cost a year either way, in cents. */
export interface CostYear {
  /** The calendar year: 2026 for year 1 of the rate schedule. */
  year: number;
  employerBasisPoints: number;
  /** The employer's contributions to My Future Fund for the employees concerned. */
  myFutureFundCents: number;
  /** The employer's extra cost of bringing the scheme up to the minimum standard instead. */
  minimumStandardCents: number;
}

export interface CostInput {
  /** Gross pay a year of the employee, capped at the ceiling. */
  reckonablePayCentsAYear: number;
  /** What the employer pays a year now, and what the employee does. */
  employerCentsAYear: number;
  employeeCentsAYear: number;
}

/**
 * The employer's cost a year over the ten-year rate schedule, from 2026 to 2035, of bringing
 * below-standard members up to the standard against their enrolment in My Future Fund. Bringing
 * them up assumes the employee's own contribution stays as it is and the employer makes up both
 * minimums. Each year is its calendar year.
 */
export function costComparison(employees: readonly CostInput[]): CostYear[] {
  let standardCents = 0;
  for (const employee of employees) {
    const pay = Math.min(employee.reckonablePayCentsAYear, EARNINGS_CEILING_CENTS_A_YEAR);
    const employerMinimum = Math.min(
      shareOfPay(pay, EMPLOYER_MINIMUM.basisPoints),
      EMPLOYER_MINIMUM.capCentsAYear,
    );
    const totalMinimum = Math.min(
      shareOfPay(pay, TOTAL_MINIMUM.basisPoints),
      TOTAL_MINIMUM.capCentsAYear,
    );
    const needed = Math.max(employerMinimum, totalMinimum - employee.employeeCentsAYear);
    standardCents += Math.max(0, needed - employee.employerCentsAYear);
  }
  const years: CostYear[] = [];
  for (let rateYear = 1; rateYear <= COST_COMPARISON_YEARS; rateYear += 1) {
    const band = rateForYear(rateYear);
    let myFutureFundCents = 0;
    for (const employee of employees) {
      const pay = Math.min(employee.reckonablePayCentsAYear, EARNINGS_CEILING_CENTS_A_YEAR);
      myFutureFundCents += shareOfPay(pay, band.employerBasisPoints);
    }
    years.push({
      year: calendarYearOf(rateYear),
      employerBasisPoints: band.employerBasisPoints,
      myFutureFundCents,
      minimumStandardCents: standardCents,
    });
  }
  return years;
}

/** A window's figure as a year's, for the cost comparison. */
export function annualised(cents: number, units: number): number {
  return units === 0 ? 0 : Math.round((cents * YEAR_UNITS) / units);
}
