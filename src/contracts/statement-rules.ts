import { addYears } from './governance-rules.js';
import { addDays, addMonths, dateInWords } from './irish-dates.js';
import { guidance, law, productPolicy, type RuleSource } from './rule-sources.js';
import { type AccrualRate, readAccrualRate } from './scheme-terms.js';

export { type AccrualRate, NORMAL_RETIREMENT_AGES, readAccrualRate } from './scheme-terms.js';

/**
 * The rules of the Pension Benefit Statement (docs/decisions/0141-pension-benefit-statements.md):
 * who gets one and when, what it says, how its projections are worked out, and the PRSA's
 * statement of account. Pure functions of the member's facts and an assumption set; the run, the
 * PDF, the member's page and the scheme-year duty all ask this module, and none works a figure of
 * its own. Money in cents (integers), rates in basis points, an annuity factor in hundredths.
 *
 * The regulations are cited as S.I. No. 128/2021 groups them (regs 31 to 35); the project has not
 * checked which of those regulations holds each sentence, so a rule that is not the projections'
 * (reg. 34) or the supplementary information's (reg. 35) cites the group.
 */

const REGULATIONS = 'S.I. No. 128/2021 reg. 31 to reg. 35';
const POLICY = 'This service’s reading, in docs/decisions/0141-pension-benefit-statements.md';

/** Each rule with its source, and what it says in words for the pages and the PDF. */
export const STATEMENT_RULES = {
  annual: {
    ...law(REGULATIONS),
    says: 'Every active and deferred member is given a Pension Benefit Statement at least once a year, free of charge, electronically unless they ask for paper.',
  },
  concise: {
    ...law(REGULATIONS),
    says: 'The statement is one concise document whose title contains the words “Pension Benefit Statement”, with the date its information refers to shown prominently, and material changes since the last statement clearly shown.',
  },
  administratorMonth: {
    ...law(REGULATIONS),
    says: 'The registered administrator prepares the statements and gives them to the trustees at least one month before the date by which members must have them.',
  },
  content: {
    ...law(REGULATIONS),
    says: 'It gives the member’s details and the retirement age used, the scheme and how to contact it, any guarantees, the fund value (DC) or accrued benefits (DB), contributions by employer and member and costs deducted over the last 12 months, and the scheme’s funding level (DB).',
  },
  projections: {
    ...law('S.I. No. 128/2021 reg. 34'),
    says: 'A DC statement projects the benefit at the retirement age used in a best-estimate and an unfavourable scenario, with a warning that the figures may differ from what is finally received.',
  },
  projectionAssumptions: {
    ...guidance(
      'The Pensions Authority’s guidance on the assumptions for benefit statement projections, updated 10 March 2023',
    ),
    says: 'The returns, inflation, salary growth and annuity factor of the projections are those of the Pensions Authority’s guidance, recorded in a versioned assumption set that names its source.',
  },
  supplementary: {
    ...law('S.I. No. 128/2021 reg. 35'),
    says: 'The statement says where the supplementary information is: the member’s options, the annual report and accounts, the statement of investment policy principles, the annuity assumptions and the benefits on leaving.',
  },
  prsaHalfYear: {
    ...guidance(
      'The Pensions Authority’s information on PRSAs: a statement of account every six months',
    ),
    says: 'A PRSA holder is sent a statement of account every six months, as well as the annual Pension Benefit Statement.',
  },
  membersByDefault: {
    ...productPolicy(POLICY),
    says: 'Members are to have the statement for a scheme year within 6 months of its end, unless the run says otherwise; the statement is dated the scheme year’s last day.',
  },
  projectionMethod: {
    ...productPolicy(POLICY),
    says: 'A DC projection steps a year at a time from the information date to the birthday at the retirement age, in whole years: each year’s contributions are added at its start, the whole grows at the assumed return and the charges are taken at its end, rounded to the cent; the result is divided by inflation over the same years to be in today’s money, and by the annuity factor to be a yearly pension.',
  },
  currentRate: {
    ...productPolicy(POLICY),
    says: 'Contributions continue at the current rate: what the member and the employer paid for the pay periods recorded in the 12 months to the information date, a month’s average times 12, growing each year with salaries and rounded to the cent. A deferred member pays nothing more.',
  },
  dbMethod: {
    ...productPolicy(POLICY),
    says: 'A DB pension accrued is the scheme’s accrual rate × pensionable salary × service in whole months over 12; the pension at normal retirement age adds an active member’s service to that age at today’s salary, so it is in today’s money; a deferred member’s is the pension accrued.',
  },
  dataChecked: {
    ...productPolicy(POLICY),
    says: 'Every member’s data is checked before any statement is made: what is missing or implausible is listed against the member, and that member’s statement waits; nothing is guessed.',
  },
  materialChange: {
    ...productPolicy(POLICY),
    says: 'A change is material when the retirement age, the assumption set or the scheme’s accrual rate differs from the last statement, or the fund value or accrued pension moved by more than a fifth.',
  },
} as const satisfies Record<string, RuleSource & { says: string }>;

/** The statutory warning every DC projection carries (reg. 34), in the statement's words. */
export const PROJECTION_CAVEAT =
  'These projections are estimates, not guarantees. What you finally receive may be more or less than shown, because it depends on investment returns, inflation, charges, the contributions paid and the cost of buying a pension when you retire. The unfavourable scenario shows what you might get if investments do badly.';

/** Where the supplementary information is (reg. 35): each item a line of the statement. */
export const SUPPLEMENTARY_INFORMATION = [
  'Your options under the scheme, including on leaving service and at retirement',
  'The scheme’s annual report and audited accounts',
  'The statement of investment policy principles',
  'The assumptions used to turn a fund into a pension (the annuity factor)',
  'The benefits payable if you leave the scheme',
] as const;

/** Members are to have a scheme year's statement within this many months of its end (policy). */
export const MEMBERS_BY_MONTHS = 6;
/** The administrator gives the statements to the trustees this many months before (regs 31 to 35). */
export const ADMINISTRATOR_MONTHS_BEFORE = 1;
/** A PRSA's statement of account covers this many months. */
export const PRSA_STATEMENT_MONTHS = 6;
/** A fund value or accrued pension that moves by more than this share (basis points) is material. */
export const MATERIAL_CHANGE_BASIS_POINTS = 2_000;

/** When members must have the statement for the scheme year ending `yearEndDate` (product policy). */
export function membersByFor(yearEndDate: string): string {
  return addMonths(yearEndDate, MEMBERS_BY_MONTHS);
}

/** The administrator's date: a month before members must have it (STATEMENT_RULES.administratorMonth). */
export function administratorDate(membersBy: string): string {
  return addMonths(membersBy, -ADMINISTRATOR_MONTHS_BEFORE);
}

/** The assumptions of one set, as the projections read them. */
export interface ProjectionAssumptions {
  bestEstimateReturnBasisPoints: number;
  unfavourableReturnBasisPoints: number;
  inflationBasisPoints: number;
  salaryGrowthBasisPoints: number;
  /** What €1 a year of pension costs at retirement, in hundredths (2250 is 22.50). */
  annuityFactorHundredths: number;
}

/** The birthday at `age`. */
export function retirementDateOf(dateOfBirth: string, age: number): string {
  return addYears(dateOfBirth, age);
}

/** Whole years from the information date to the birthday at the retirement age; 0 once it is past. */
export function yearsToRetirement(
  dateOfBirth: string,
  informationDate: string,
  retirementAge: number,
): number {
  const retiresOn = retirementDateOf(dateOfBirth, retirementAge);
  if (retiresOn <= informationDate) return 0;
  let years = Number(retiresOn.slice(0, 4)) - Number(informationDate.slice(0, 4));
  if (addYears(informationDate, years) > retiresOn) years -= 1;
  return years;
}

/** Whole months from one day to another, both days counted, as service is (a month completed). */
export function wholeMonthsBetween(from: string, to: string): number {
  if (to <= from) return 0;
  const end = addDays(to, 1);
  let months =
    (Number(end.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
    (Number(end.slice(5, 7)) - Number(from.slice(5, 7)));
  if (Number(end.slice(8, 10)) < Number(from.slice(8, 10))) months -= 1;
  return Math.max(months, 0);
}

/** Whole months after the information date up to the day before the birthday at the retirement age. */
export function monthsToRetirement(
  dateOfBirth: string,
  informationDate: string,
  retirementAge: number,
): number {
  const retiresOn = retirementDateOf(dateOfBirth, retirementAge);
  if (retiresOn <= informationDate) return 0;
  return wholeMonthsBetween(addDays(informationDate, 1), addDays(retiresOn, -1));
}

/** One fund's part of a member's value, with its yearly charge. */
export interface FundValue {
  valueCents: number;
  annualChargeBasisPoints: number;
}

/** The yearly charge of a member's whole fund: each fund's charge weighted by its value. */
export function weightedChargeBasisPoints(funds: readonly FundValue[]): number {
  const total = funds.reduce((sum, fund) => sum + fund.valueCents, 0);
  if (total <= 0) return 0;
  return (
    funds.reduce((sum, fund) => sum + fund.valueCents * fund.annualChargeBasisPoints, 0) / total
  );
}

/** A fund where new money goes, by its whole percent of each contribution, with its yearly charge. */
export interface FundShare {
  percent: number;
  annualChargeBasisPoints: number;
}

/**
 * The yearly charge a projection takes (STATEMENT_RULES.projectionMethod): that of the funds the
 * member's money is in, each weighted by its value; where nothing is invested yet, that of the
 * funds their contributions go to (their fund choice, or the scheme's default fund), each weighted
 * by its percent. A member whose money awaits investment is charged what it will be charged.
 */
export function projectionChargeBasisPoints(
  held: readonly FundValue[],
  future: readonly FundShare[],
): number {
  if (held.some((fund) => fund.valueCents > 0)) return weightedChargeBasisPoints(held);
  return weightedChargeBasisPoints(
    future.map((fund) => ({
      valueCents: fund.percent,
      annualChargeBasisPoints: fund.annualChargeBasisPoints,
    })),
  );
}

/**
 * The 12 pay periods (`YYYY-MM`) of a statement's year: the information date's month and the 11
 * before it. A contribution counts for its pay period, whatever day it was received or recorded.
 */
export function periodsOfYear(informationDate: string): { from: string; to: string } {
  return {
    from: addMonths(informationDate, -11).slice(0, 7),
    to: informationDate.slice(0, 7),
  };
}

/**
 * The day a pay period's contribution counts on in the statement's figures: the period's first
 * day, which lies within the 12 months `yearBefore` opens for every period of `periodsOfYear`.
 */
export function periodDay(period: string): string {
  return `${period}-01`;
}

/**
 * A year's contributions at the current rate (STATEMENT_RULES.currentRate): what was paid for
 * the pay periods recorded in the statement's year, a month's average times 12, to the cent. Three
 * months of €480 are €5,760 a year, not €1,440; a month with nothing recorded is not taken for a
 * month paid at nothing.
 */
export function annualisedContributionCents(
  paid: ReadonlyArray<{ period: string; amountCents: number }>,
): number {
  const months = new Set(paid.map((row) => row.period)).size;
  if (months === 0) return 0;
  const total = paid.reduce((sum, row) => sum + row.amountCents, 0);
  return Math.round((total * 12) / months);
}

export interface DcProjectionFacts {
  fundValueCents: number;
  /** Employee, AVC and employer contributions a year at the current rate; 0 for a deferred member. */
  annualContributionCents: number;
  /** The fund's yearly charge, weighted (weightedChargeBasisPoints), to a hundredth of a point. */
  chargeBasisPoints: number;
  years: number;
}

export interface ScenarioProjection {
  /** The fund at retirement, in today's money. */
  fundCents: number;
  /** The yearly pension it buys at the annuity factor, in today's money. */
  pensionCents: number;
}

export interface DcProjection {
  years: number;
  bestEstimate: ScenarioProjection;
  unfavourable: ScenarioProjection;
}

/** One scenario (STATEMENT_RULES.projectionMethod): each year rounded to the cent. */
export function projectScenario(
  facts: DcProjectionFacts,
  returnBasisPoints: number,
  assumptions: Pick<
    ProjectionAssumptions,
    'inflationBasisPoints' | 'salaryGrowthBasisPoints' | 'annuityFactorHundredths'
  >,
): ScenarioProjection {
  // Whole numbers throughout, so that a year ending on half a cent rounds the same way here, in the
  // worked tests and in any spreadsheet that checks a statement: rates in basis points, the charge
  // in hundredths of one.
  const growth = 10_000n + BigInt(returnBasisPoints);
  const kept = 1_000_000n - BigInt(Math.round(facts.chargeBasisPoints * 100));
  const salaries = 10_000n + BigInt(assumptions.salaryGrowthBasisPoints);
  let value = BigInt(facts.fundValueCents);
  let contribution = BigInt(facts.annualContributionCents);
  for (let year = 1; year <= facts.years; year += 1) {
    value = roundedDivision((value + contribution) * growth * kept, 10_000_000_000n);
    contribution = roundedDivision(contribution * salaries, 10_000n);
  }
  const years = BigInt(facts.years);
  const fund = roundedDivision(
    value * 10_000n ** years,
    (10_000n + BigInt(assumptions.inflationBasisPoints)) ** years,
  );
  return {
    fundCents: Number(fund),
    pensionCents: Number(roundedDivision(fund * 100n, BigInt(assumptions.annuityFactorHundredths))),
  };
}

/** `a / b` rounded half up, for a non-negative `a` and a positive `b`. */
function roundedDivision(a: bigint, b: bigint): bigint {
  return (a * 2n + b) / (b * 2n);
}

/** Both scenarios of a DC projection, in today's money (STATEMENT_RULES.projections). */
export function projectDc(
  facts: DcProjectionFacts,
  assumptions: ProjectionAssumptions,
): DcProjection {
  return {
    years: facts.years,
    bestEstimate: projectScenario(facts, assumptions.bestEstimateReturnBasisPoints, assumptions),
    unfavourable: projectScenario(facts, assumptions.unfavourableReturnBasisPoints, assumptions),
  };
}

/** A movement of the 12 months a statement reports. */
export interface YearMovement {
  /** A switch moves money between funds: it is carried so that it is seen to count for nothing. */
  kind: 'employee' | 'employer' | 'avc' | 'charge' | 'switch_out' | 'switch_in';
  on: string;
  amountCents: number;
}

export interface YearInFigures {
  from: string;
  to: string;
  /** The member's own: employee contributions and AVCs. */
  memberCents: number;
  employerCents: number;
  costsCents: number;
}

/** The first day of the 12 months to `informationDate`. */
export function yearBefore(informationDate: string): string {
  return addDays(addMonths(informationDate, -12), 1);
}

/**
 * Contributions by the member and the employer and the costs deducted over the 12 months to the
 * information date, both days included (STATEMENT_RULES.content). A switch moves money between
 * funds and is neither; a charge counts as a cost whatever its sign in the ledger.
 */
export function yearInFigures(
  movements: readonly YearMovement[],
  informationDate: string,
): YearInFigures {
  const from = yearBefore(informationDate);
  const figures: YearInFigures = {
    from,
    to: informationDate,
    memberCents: 0,
    employerCents: 0,
    costsCents: 0,
  };
  for (const movement of movements) {
    if (movement.on < from || movement.on > informationDate) continue;
    if (movement.kind === 'charge') figures.costsCents += Math.abs(movement.amountCents);
    else if (movement.kind === 'employer') figures.employerCents += movement.amountCents;
    else if (movement.kind === 'employee' || movement.kind === 'avc') {
      figures.memberCents += movement.amountCents;
    }
  }
  return figures;
}

export interface DbFacts {
  accrualRate: AccrualRate;
  pensionableSalaryCents: number;
  /** Whole months of pensionable service to the information date. */
  serviceMonths: number;
  /** Whole months from the information date to normal retirement age; 0 for a deferred member. */
  monthsToRetirement: number;
}

export interface DbProjection {
  accruedPensionCents: number;
  projectedPensionCents: number;
}

const pensionFor = (rate: AccrualRate, salaryCents: number, months: number) =>
  Math.round((salaryCents * months * rate.numerator) / (12 * rate.denominator));

/** A DB member's pension accrued and at normal retirement age (STATEMENT_RULES.dbMethod). */
export function projectDb(facts: DbFacts): DbProjection {
  return {
    accruedPensionCents: pensionFor(
      facts.accrualRate,
      facts.pensionableSalaryCents,
      facts.serviceMonths,
    ),
    projectedPensionCents: pensionFor(
      facts.accrualRate,
      facts.pensionableSalaryCents,
      facts.serviceMonths + facts.monthsToRetirement,
    ),
  };
}

/** The six months a PRSA statement of account covers, ending `periodEnd`. */
export function prsaPeriod(periodEnd: string): { from: string; to: string } {
  return { from: addDays(addMonths(periodEnd, -PRSA_STATEMENT_MONTHS), 1), to: periodEnd };
}

export interface StatementOfAccount {
  from: string;
  to: string;
  openingCents: number;
  contributionsCents: number;
  costsCents: number;
  /** The investment return: what is left of the change once money in and costs are counted. */
  investmentReturnCents: number;
  closingCents: number;
}

/**
 * A PRSA's six-monthly statement of account (STATEMENT_RULES.prsaHalfYear): the value at the start
 * and the end, what was paid in and charged, and the investment return that makes them agree.
 */
export function prsaStatementOfAccount(facts: {
  periodEnd: string;
  openingCents: number;
  closingCents: number;
  movements: readonly YearMovement[];
}): StatementOfAccount {
  const { from, to } = prsaPeriod(facts.periodEnd);
  let contributionsCents = 0;
  let costsCents = 0;
  for (const movement of facts.movements) {
    if (movement.on < from || movement.on > to) continue;
    if (movement.kind === 'charge') costsCents += Math.abs(movement.amountCents);
    else if (movement.kind !== 'switch_in' && movement.kind !== 'switch_out') {
      contributionsCents += movement.amountCents;
    }
  }
  return {
    from,
    to,
    openingCents: facts.openingCents,
    contributionsCents,
    costsCents,
    investmentReturnCents:
      facts.closingCents - facts.openingCents - contributionsCents + costsCents,
    closingCents: facts.closingCents,
  };
}

/** What a member's data is checked for before a statement is made (STATEMENT_RULES.dataChecked). */
export const DATA_ISSUES = {
  no_retirement_age: 'The scheme has no normal retirement age',
  no_accrual_rate: 'The DB scheme has no accrual rate',
  no_funding_level: 'The DB scheme has no funding level',
  joined_after_information_date: 'The member joined after the information date',
  implausible_age: 'The member’s age on the information date is under 16 or over 80',
  past_retirement_age: 'The member is past the retirement age and is still active',
  no_salary: 'The member has no pensionable salary',
  implausible_salary: 'The member’s salary is over €1,000,000 a year',
  no_price: 'A fund the member holds has no price on or before the information date',
  no_value: 'Nothing was paid in or invested for the member by the information date',
} as const;
export type DataIssue = keyof typeof DATA_ISSUES;

/**
 * The checks that are the scheme's, not the member's: each is corrected once, with Edit scheme on
 * the scheme's page, and fails every member of the scheme until it is.
 */
export const SCHEME_DATA_ISSUES = [
  'no_retirement_age',
  'no_accrual_rate',
  'no_funding_level',
] as const satisfies readonly DataIssue[];
export type SchemeDataIssue = (typeof SCHEME_DATA_ISSUES)[number];

/** Whether a problem is the scheme's (corrected in its details) rather than the member's record. */
export function isSchemeDataIssue(issue: DataIssue): issue is SchemeDataIssue {
  return (SCHEME_DATA_ISSUES as readonly DataIssue[]).includes(issue);
}

/**
 * The checks whose figures are as at the information date: their words name it, so that a member
 * whose money arrived after it is not taken to have none.
 */
const AS_AT_THE_DATE: readonly DataIssue[] = ['joined_after_information_date', 'no_value'];

/** A problem in words as the run lists it, with the information date where the check reads it. */
export function dataIssueWords(issue: DataIssue, informationDate: string): string {
  return AS_AT_THE_DATE.includes(issue)
    ? `${DATA_ISSUES[issue]}, ${dateInWords(informationDate)}`
    : DATA_ISSUES[issue];
}

/** The scheme's terms a statement needs, as its record holds them. */
export interface SchemeTermsFacts {
  schemeType: 'DB' | 'DC' | 'PRSA' | 'RAC';
  normalRetirementAge: number | null;
  accrualRate: string | null;
  fundingLevelPct: number | null;
}

/**
 * The scheme's terms missing for any statement to be made (STATEMENT_RULES.content and dbMethod):
 * every scheme's normal retirement age, and a DB scheme's accrual rate and funding level. The run
 * lists them against each member; the run dialog warns of them before a run is started.
 */
export function missingSchemeTerms(facts: SchemeTermsFacts): SchemeDataIssue[] {
  const missing: SchemeDataIssue[] = [];
  const db = facts.schemeType === 'DB';
  if (facts.normalRetirementAge === null) missing.push('no_retirement_age');
  if (db && (facts.accrualRate === null || readAccrualRate(facts.accrualRate) === null)) {
    missing.push('no_accrual_rate');
  }
  if (db && facts.fundingLevelPct === null) missing.push('no_funding_level');
  return missing;
}

/** Above this salary (cents a year) a salary is taken to be a typing error. */
export const IMPLAUSIBLE_SALARY_CENTS = 100_000_000;

export interface MemberDataFacts extends SchemeTermsFacts {
  status: 'active' | 'deferred';
  dateOfBirth: string;
  dateJoined: string;
  salaryCents: number;
  informationDate: string;
  /** DC: whether every fund held has a price on or before the information date. */
  pricesMissing: boolean;
  /** DC: the fund value and the last year's contributions. */
  fundValueCents: number;
  yearContributionsCents: number;
}

/** Age in whole years on a day. */
export function ageOn(dateOfBirth: string, on: string): number {
  let age = Number(on.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  if (addYears(dateOfBirth, age) > on) age -= 1;
  return age;
}

/** Everything missing or implausible in one member's data, in a fixed order; none is guessed. */
export function checkMemberData(facts: MemberDataFacts): DataIssue[] {
  const issues: DataIssue[] = missingSchemeTerms(facts);
  const db = facts.schemeType === 'DB';
  if (facts.dateJoined > facts.informationDate) issues.push('joined_after_information_date');
  const age = ageOn(facts.dateOfBirth, facts.informationDate);
  if (age < 16 || age > 80) issues.push('implausible_age');
  else if (
    facts.status === 'active' &&
    facts.normalRetirementAge !== null &&
    age >= facts.normalRetirementAge
  ) {
    issues.push('past_retirement_age');
  }
  if (db && facts.salaryCents <= 0) issues.push('no_salary');
  if (facts.salaryCents > IMPLAUSIBLE_SALARY_CENTS) issues.push('implausible_salary');
  if (!db && facts.pricesMissing) issues.push('no_price');
  if (
    !db &&
    !facts.pricesMissing &&
    facts.fundValueCents <= 0 &&
    facts.yearContributionsCents <= 0
  ) {
    issues.push('no_value');
  }
  return issues;
}

/** The figures one statement compares with the last, to mark what changed materially. */
export interface ComparedFigures {
  retirementAge: number;
  assumptionsId: string;
  accrualRate: string | null;
  /** DC: the fund value; DB: the pension accrued. */
  headlineCents: number;
}

export const MATERIAL_CHANGES = {
  retirement_age: 'The retirement age used has changed',
  assumptions: 'The projection assumptions have changed',
  accrual_rate: 'The scheme’s accrual rate has changed',
  headline: 'Your benefit has changed by more than a fifth since your last statement',
} as const;
export type MaterialChange = keyof typeof MATERIAL_CHANGES;

/** What changed materially since the last statement (none for a first statement). */
export function materialChanges(
  last: ComparedFigures | null,
  now: ComparedFigures,
): MaterialChange[] {
  if (last === null) return [];
  const changes: MaterialChange[] = [];
  if (last.retirementAge !== now.retirementAge) changes.push('retirement_age');
  if (last.assumptionsId !== now.assumptionsId) changes.push('assumptions');
  if (last.accrualRate !== now.accrualRate) changes.push('accrual_rate');
  const moved = Math.abs(now.headlineCents - last.headlineCents) * 10_000;
  if (moved > Math.abs(last.headlineCents) * MATERIAL_CHANGE_BASIS_POINTS) changes.push('headline');
  return changes;
}
