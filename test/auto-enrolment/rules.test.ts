import { describe, expect, it } from 'vitest';
import {
  AE_REASONS,
  AE_RULE_OF_REASON,
  AE_RULES,
  type AeReason,
  ageOn,
  assessEmployee,
  assessmentWindow,
  calendarYearOf,
  costComparison,
  type EmployeeWindowFacts,
  periodYearUnits,
  proRatedCents,
  rateForYear,
  reasonSource,
  YEAR_UNITS,
} from '../../src/contracts/auto-enrolment-rules.js';

/**
 * The auto-enrolment rules on worked cases at every boundary (the Automatic Enrolment Retirement
 * Savings System Act 2024 and S.I. No. 637 of 2025, as contracts/auto-enrolment-rules.ts cites
 * them; docs/decisions/0068-auto-enrolment-readiness.md). The window is 01/01/2026 to
 * 31/03/2026; thirteen weekly pay periods are a quarter of a year, as are three monthly ones.
 */

const WEEK = YEAR_UNITS / 52;
const QUARTER = 13 * WEEK;

/** An employee aged 40 earning €40,000 a year over 13 weekly periods, paying nothing. */
function facts(overrides: Partial<EmployeeWindowFacts> = {}): EmployeeWindowFacts {
  return {
    windowStart: '2026-01-01',
    dateOfBirth: '1986-02-01',
    lastPeriodEnd: '2026-03-29',
    yearUnits: QUARTER,
    grossCents: 1_000_000,
    employeeCents: 0,
    employerCents: 0,
    periodsEmployerOnly: 0,
    periodsEmployeeOnly: 0,
    periodsBoth: 0,
    periodsNeither: 13,
    prsaWithoutDeductions: false,
    paysThroughPayroll: false,
    membership: null,
    ...overrides,
  };
}

/** Paying through payroll in every one of the 13 periods. */
const paying = (employeeCents: number, employerCents: number) =>
  facts({
    employeeCents,
    employerCents,
    paysThroughPayroll: true,
    periodsBoth: employeeCents > 0 && employerCents > 0 ? 13 : 0,
    periodsEmployeeOnly: employeeCents > 0 && employerCents === 0 ? 13 : 0,
    periodsEmployerOnly: employerCents > 0 && employeeCents === 0 ? 13 : 0,
    periodsNeither: employeeCents === 0 && employerCents === 0 ? 13 : 0,
  });

describe('every rule carries its label, its citation and the day it applies from', () => {
  it('cites the Act to its section, or the exempt-employment standard to its article and schedule, from 1 January 2026', () => {
    for (const rule of Object.values(AE_RULES)) {
      if (rule.label === 'law') {
        expect(rule.citation).toMatch(
          /^Automatic Enrolment Retirement Savings System Act 2024 s\.\d|^S\.I\. No\. 637 of 2025, art\. 4A and Sch\. 1A \(inserted by S\.I\. No\. 668 of 2025\)$/,
        );
      }
      expect(rule.effectiveFrom).toBe('2026-01-01');
    }
    expect(AE_RULES.eligibility.citation).toContain('s.50(2)–(3)');
    expect(AE_RULES.exemptEmployment.citation).toContain('s.51');
    expect(AE_RULES.earningsCeiling.citation).toContain('s.58(3)');
    expect(AE_RULES.contributionRates.citation).toContain('s.61');
    // The period read is this service's choice, and is labelled so.
    expect(AE_RULES.periodAssessed.label).toBe('product_policy');
  });
});

describe('the window is the three months ending on the day asked about', () => {
  it('runs from the day after the same date three months before', () => {
    expect(assessmentWindow('2026-03-31')).toEqual({
      windowStart: '2026-01-01',
      windowEnd: '2026-03-31',
    });
    expect(assessmentWindow('2026-05-31')).toEqual({
      windowStart: '2026-03-01',
      windowEnd: '2026-05-31',
    });
  });
});

describe('the age band: 23 to 59 on the last day of the pay reference period', () => {
  const bornOn = (dateOfBirth: string) => assessEmployee(facts({ dateOfBirth }));
  it('is out of the band at 22, the day before the 23rd birthday', () => {
    expect(ageOn('2003-03-30', '2026-03-29')).toBe(22);
    expect(bornOn('2003-03-30')).toMatchObject({
      status: 'not_eligible',
      reasons: ['under_age_band'],
    });
  });
  it('is in the band on the 23rd birthday', () => {
    expect(bornOn('2003-03-29').status).toBe('likely_enrolled');
  });
  it('is in the band at 59, the day before the 60th birthday', () => {
    expect(bornOn('1966-03-30').status).toBe('likely_enrolled');
  });
  it('is out of the band on the 60th birthday', () => {
    expect(bornOn('1966-03-29')).toMatchObject({
      status: 'not_eligible',
      reasons: ['over_age_band'],
    });
  });
});

describe('pay against €20,000 a year, pro-rated to the period', () => {
  it('counts a week as 1/52 of a year and a calendar month as 1/12', () => {
    expect(periodYearUnits('2026-01-05', '2026-01-11')).toBe(YEAR_UNITS / 52);
    expect(periodYearUnits('2026-02-01', '2026-02-28')).toBe(YEAR_UNITS / 12);
    expect(periodYearUnits('2026-01-01', '2026-01-14')).toBe(YEAR_UNITS / 26);
    expect(periodYearUnits('2026-01-01', '2026-01-10')).toBe((YEAR_UNITS / 365) * 10);
  });
  it('is met by a weekly payroll at exactly €5,000 over 13 weeks, not a cent less', () => {
    expect(proRatedCents(2_000_000, QUARTER)).toBe(500_000);
    expect(assessEmployee(facts({ grossCents: 500_000 })).status).toBe('likely_enrolled');
    expect(assessEmployee(facts({ grossCents: 499_999 }))).toMatchObject({
      status: 'not_eligible',
      reasons: ['pay_below_threshold'],
    });
  });
  it('is met by one week at €384.62 and not by €384.61', () => {
    const week = (grossCents: number) =>
      assessEmployee(facts({ yearUnits: WEEK, grossCents, periodsNeither: 1 })).status;
    expect(week(38_462)).toBe('likely_enrolled');
    expect(week(38_461)).toBe('not_eligible');
  });
  it('is met by a monthly payroll at exactly €5,000 over three months, not a cent less', () => {
    const monthly = (grossCents: number) =>
      assessEmployee(
        facts({ yearUnits: 3 * (YEAR_UNITS / 12), grossCents, lastPeriodEnd: '2026-03-31' }),
      ).status;
    expect(monthly(500_000)).toBe('likely_enrolled');
    expect(monthly(499_999)).toBe('not_eligible');
  });
  it('says the threshold is an estimate, since pay from other employments is unknown', () => {
    expect(AE_REASONS.pay_below_threshold).toMatch(/estimate/);
  });
});

describe('the minimum standard of Schedule 1A over three months', () => {
  // €10,000 over the quarter: employer at least 1.5% = €150, total at least 3.5% = €350.
  it('is met by an employer €150 and a total €350 exactly', () => {
    expect(assessEmployee(paying(20_000, 15_000))).toMatchObject({
      status: 'exempt',
      reasons: ['meets_minimum_standard'],
      employerMinimumCents: 15_000,
      totalMinimumCents: 35_000,
    });
  });
  it('falls short by a cent when the employer pays €149.99', () => {
    expect(assessEmployee(paying(20_001, 14_999))).toMatchObject({
      status: 'below_standard',
      reasons: ['employer_below_minimum'],
      shortfallCents: 1,
    });
  });
  it('falls short by a cent when the total is €349.99', () => {
    expect(assessEmployee(paying(19_999, 15_000))).toMatchObject({
      status: 'below_standard',
      reasons: ['total_below_minimum'],
      shortfallCents: 1,
    });
  });
  it('takes the €1,200 and €2,800 a year caps when they are lower than the percentages', () => {
    // €30,000 over the quarter (€120,000 a year): the caps are €300 and €700 for the quarter.
    const high = (employee: number, employer: number) =>
      assessEmployee({ ...paying(employee, employer), grossCents: 3_000_000 });
    expect(high(40_000, 30_000)).toMatchObject({
      status: 'exempt',
      employerMinimumCents: 30_000,
      totalMinimumCents: 70_000,
    });
    expect(high(40_000, 29_999)).toMatchObject({ status: 'below_standard', shortfallCents: 1 });
  });
  it('ignores pay above €80,000 a year for contributions', () => {
    expect(assessEmployee({ ...paying(1, 1), grossCents: 3_000_000 })).toMatchObject({
      reckonablePayCents: 2_000_000,
    });
    expect(assessEmployee({ ...paying(1, 1), grossCents: 1_999_999 })).toMatchObject({
      reckonablePayCents: 1_999_999,
    });
  });
  it('reads an employer match from an employer that pays only when the employee does', () => {
    const matched = assessEmployee({
      ...paying(10_000, 5_000),
      periodsBoth: 5,
      periodsNeither: 8,
    });
    expect(matched.status).toBe('below_standard');
    expect(matched.reasons).toContain('employer_match_depends_on_employee');
  });
});

describe('the arrangement', () => {
  const member = (schemeType: string, dateJoined: string) => ({ schemeType, dateJoined });
  it('exempts a member of a defined benefit scheme whose contributions pass through payroll', () => {
    const db = { ...paying(20_000, 0), membership: member('DB', '2010-01-01') };
    expect(assessEmployee(db)).toMatchObject({ status: 'exempt', reasons: ['defined_benefit'] });
    // Not held to the DC minimums: 2% from the employee alone is enough for a DB member.
    expect(assessEmployee(db).shortfallCents).toBeUndefined();
  });
  it('calls a defined benefit member with nothing through payroll likely exempt, to be confirmed', () => {
    // s.51 tests contributions notified through payroll, not membership.
    const unseen = assessEmployee(facts({ membership: member('DB', '2010-01-01') }));
    expect(unseen).toMatchObject({
      status: 'likely_exempt',
      reasons: ['defined_benefit_unconfirmed'],
    });
    expect(AE_REASONS.defined_benefit_unconfirmed).toContain('confirm');
    expect(reasonSource('defined_benefit_unconfirmed')).toEqual({
      label: 'law',
      citation: 'Automatic Enrolment Retirement Savings System Act 2024 s.51',
    });
  });
  it('counts a member in a waiting period as enrolled in My Future Fund until contributions start', () => {
    const joined = (dateJoined: string) =>
      assessEmployee(facts({ membership: member('DC', dateJoined) }));
    expect(joined('2026-01-01')).toMatchObject({
      status: 'likely_enrolled',
      reasons: ['waiting_period'],
    });
    expect(joined('2025-12-31')).toMatchObject({
      status: 'below_standard',
      reasons: ['zero_contribution', 'employer_match_depends_on_employee'],
      shortfallCents: 35_000,
    });
  });
  it('does not exempt a PRSA paid by personal direct debit', () => {
    expect(assessEmployee(facts({ prsaWithoutDeductions: true }))).toMatchObject({
      status: 'likely_enrolled',
      reasons: ['prsa_outside_payroll'],
    });
  });
  it('expects anyone eligible with nothing through payroll to be enrolled', () => {
    expect(assessEmployee(facts())).toMatchObject({
      status: 'likely_enrolled',
      reasons: ['no_pension_through_payroll'],
    });
  });
});

describe('the rate schedule and the cost comparison', () => {
  it('rises at years 4, 7 and 10', () => {
    expect([1, 3, 4, 6, 7, 9, 10, 25].map((year) => rateForYear(year).employerBasisPoints)).toEqual(
      [150, 150, 300, 300, 450, 450, 600, 600],
    );
    expect(rateForYear(10)).toMatchObject({ employeeBasisPoints: 600, stateBasisPoints: 200 });
  });
  it('costs My Future Fund on pay up to €80,000 and the standard at what is missing', () => {
    const years = costComparison([
      { reckonablePayCentsAYear: 12_000_000, employerCentsAYear: 0, employeeCentsAYear: 0 },
      {
        reckonablePayCentsAYear: 4_000_000,
        employerCentsAYear: 40_000,
        employeeCentsAYear: 80_000,
      },
    ]);
    expect(years).toHaveLength(10);
    // 2026, year 1: 1.5% of €80,000 + 1.5% of €40,000; the standard: €2,800 + (€1,400 − €800 − €400).
    expect(years[0]).toMatchObject({
      year: 2026,
      myFutureFundCents: 120_000 + 60_000,
      minimumStandardCents: 280_000 + 20_000,
    });
    // The rate rises in 2029, 2032 and 2035, years 4, 7 and 10.
    expect(years.map((entry) => entry.employerBasisPoints)).toEqual([
      150, 150, 150, 300, 300, 300, 450, 450, 450, 600,
    ]);
    expect(years[9]).toMatchObject({ year: 2035, myFutureFundCents: 480_000 + 240_000 });
  });
  it('names each year of the schedule by its calendar year: year 1 is 2026', () => {
    expect(calendarYearOf(1)).toBe(2026);
    expect(calendarYearOf(10)).toBe(2035);
  });
});

describe('the reasons and the provisions they apply', () => {
  it('cite one rule of the module for every reason, the one the reason comes from', () => {
    const reasons = Object.keys(AE_REASONS) as AeReason[];
    expect(Object.keys(AE_RULE_OF_REASON).sort()).toEqual([...reasons].sort());
    const citations = new Set<string>(Object.values(AE_RULES).map((rule) => rule.citation));
    for (const reason of reasons) expect(citations.has(reasonSource(reason).citation)).toBe(true);
    const cited = (reason: AeReason) => reasonSource(reason).citation;
    expect(cited('prsa_outside_payroll')).toBe(AE_RULES.exemptEmployment.citation);
    expect(cited('total_below_minimum')).toBe(AE_RULES.minimumStandard.citation);
    expect(cited('defined_benefit')).toBe(AE_RULES.definedBenefit.citation);
    expect(cited('under_age_band')).toBe(AE_RULES.eligibility.citation);
    expect(reasonSource('no_pay_in_window').label).toBe('product_policy');
  });
});
