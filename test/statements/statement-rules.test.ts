import { describe, expect, it } from 'vitest';
import { RETIREMENT_AGE_RULES } from '../../src/contracts/retirement-age-rules.js';
import { benefitStatementsObligation } from '../../src/contracts/scheme-year-rules.js';
import {
  administratorDate,
  ageOn,
  annualisedContributionCents,
  checkMemberData,
  DATA_ISSUES,
  dataIssueWords,
  isSchemeDataIssue,
  type MemberDataFacts,
  materialChanges,
  membersByFor,
  missingSchemeTerms,
  monthsToRetirement,
  NORMAL_RETIREMENT_AGES,
  PROJECTION_CAVEAT,
  type ProjectionAssumptions,
  periodDay,
  periodsOfYear,
  projectDb,
  projectDc,
  projectionChargeBasisPoints,
  prsaStatementOfAccount,
  readAccrualRate,
  STATEMENT_RULES,
  weightedChargeBasisPoints,
  wholeMonthsBetween,
  type YearMovement,
  yearBefore,
  yearInFigures,
  yearsToRetirement,
} from '../../src/contracts/statement-rules.js';
import { statementFileName } from '../../src/contracts/statements.js';

/**
 * Worked statements, figure by figure (docs/decisions/0141-pension-benefit-statements.md). The
 * projections were worked apart from this code, in decimal arithmetic rounding half up to the cent
 * at the end of each year as STATEMENT_RULES.projectionMethod says; the other figures are worked
 * in the comments beside them.
 */

/** An assumption set of the shape the Pensions Authority's guidance gives. */
const ASSUMPTIONS: ProjectionAssumptions = {
  bestEstimateReturnBasisPoints: 475,
  unfavourableReturnBasisPoints: 150,
  inflationBasisPoints: 250,
  salaryGrowthBasisPoints: 250,
  annuityFactorHundredths: 2_500,
};

const monthly = (kind: YearMovement['kind'], cents: number, year: number, day = 28) =>
  Array.from({ length: 12 }, (_, index) => ({
    kind,
    on: `${year}-${String(index + 1).padStart(2, '0')}-${day}`,
    amountCents: cents,
  }));

describe('a DC member with two funds and a switch', () => {
  // Born 15 June 1986, retirement age 65: retires 15 June 2051. Statement at 31 December 2026.
  // On 1 July 2026 they switched €10,000 from the equity fund to the cash fund.
  const movements: YearMovement[] = [
    ...monthly('employee', 25_000, 2026),
    ...monthly('employer', 25_000, 2026),
    { kind: 'avc', on: '2026-09-15', amountCents: 60_000 },
    { kind: 'switch_out', on: '2026-07-01', amountCents: -1_000_000 },
    { kind: 'switch_in', on: '2026-07-01', amountCents: 1_000_000 },
    ...Array.from({ length: 12 }, (_, index) => ({
      kind: 'charge' as const,
      on: `2026-${String(index + 1).padStart(2, '0')}-01`,
      amountCents: -1_920,
    })),
    // Before the 12 months: not counted.
    { kind: 'employee', on: '2025-12-31', amountCents: 25_000 },
    { kind: 'charge', on: '2025-12-01', amountCents: -1_900 },
  ];

  it('counts the last 12 months’ contributions by member and employer and the costs, and not the switch', () => {
    expect(yearInFigures(movements, '2026-12-31')).toEqual({
      from: '2026-01-01',
      to: '2026-12-31',
      memberCents: 360_000, // 12 × €250 + the €600 AVC
      employerCents: 300_000, // 12 × €250
      costsCents: 23_040, // 12 × €19.20
    });
  });

  it('weights the charges of the two funds by their value after the switch', () => {
    // Equity €30,000 at 0.75%, cash €10,000 at 0.25%: (30,000 × 75 + 10,000 × 25) / 40,000 = 62.5.
    expect(
      weightedChargeBasisPoints([
        { valueCents: 3_000_000, annualChargeBasisPoints: 75 },
        { valueCents: 1_000_000, annualChargeBasisPoints: 25 },
      ]),
    ).toBe(62.5);
  });

  it('projects both scenarios in today’s money over the whole years to retirement', () => {
    // 31 December 2026 to 15 June 2051: 24 whole years (25 would be 31 December 2051).
    const years = yearsToRetirement('1986-06-15', '2026-12-31', 65);
    expect(years).toBe(24);
    const projection = projectDc(
      {
        fundValueCents: 4_000_000,
        annualContributionCents: 660_000, // €3,600 by the member and €3,000 by the employer
        chargeBasisPoints: 62.5,
        years,
      },
      ASSUMPTIONS,
    );
    expect(projection).toEqual({
      years: 24,
      bestEstimate: { fundCents: 25_117_801, pensionCents: 1_004_712 },
      unfavourable: { fundCents: 15_756_829, pensionCents: 630_273 },
    });
    // A pension is the fund divided by the annuity factor: €251,178.01 / 25 = €10,047.12.
    expect(Math.round(25_117_801 / 25)).toBe(1_004_712);
  });
});

describe('a deferred DC member', () => {
  // Born 1 March 1980, left service, €52,000 in one fund at 1%; retirement age 65.
  it('pays nothing more and projects the fund alone', () => {
    const years = yearsToRetirement('1980-03-01', '2026-12-31', 65);
    expect(years).toBe(18);
    const projection = projectDc(
      { fundValueCents: 5_200_000, annualContributionCents: 0, chargeBasisPoints: 100, years },
      ASSUMPTIONS,
    );
    expect(projection.bestEstimate).toEqual({ fundCents: 6_414_751, pensionCents: 256_590 });
    expect(projection.unfavourable).toEqual({ fundCents: 3_637_441, pensionCents: 145_498 });
    // Near enough by the closed form: 52,000 × (1.0475 × 0.99 / 1.025)^18 ≈ 64,147.
    expect(Math.abs(52_000 * ((1.0475 * 0.99) / 1.025) ** 18 - 64_147.51)).toBeLessThan(1);
  });

  it('is not projected past the retirement age', () => {
    expect(yearsToRetirement('1960-01-01', '2026-12-31', 65)).toBe(0);
    const projection = projectDc(
      { fundValueCents: 100_000, annualContributionCents: 0, chargeBasisPoints: 100, years: 0 },
      ASSUMPTIONS,
    );
    expect(projection.bestEstimate.fundCents).toBe(100_000);
  });
});

describe('a DB member with 23.5 years’ service at 1/60ths', () => {
  // Joined 1 July 2003; statement at 31 December 2026; born 1 January 1976, NRA 65.
  it('works the pension accrued and at normal retirement age from the accrual rate', () => {
    const serviceMonths = wholeMonthsBetween('2003-07-01', '2026-12-31');
    expect(serviceMonths).toBe(282); // 23 years and 6 months
    const toRetirement = monthsToRetirement('1976-01-01', '2026-12-31', 65);
    expect(toRetirement).toBe(168); // 1 January 2027 to 31 December 2040: 14 years
    const rate = readAccrualRate('1/60');
    expect(rate).toEqual({ numerator: 1, denominator: 60 });
    expect(
      projectDb({
        accrualRate: rate as NonNullable<typeof rate>,
        pensionableSalaryCents: 4_800_000,
        serviceMonths,
        monthsToRetirement: toRetirement,
      }),
    ).toEqual({
      accruedPensionCents: 1_880_000, // €48,000 × 23.5 / 60 = €18,800
      projectedPensionCents: 3_000_000, // €48,000 × 37.5 / 60 = €30,000
    });
  });

  it('reads only an accrual rate that is a fraction below one', () => {
    expect(readAccrualRate('1/80')).toEqual({ numerator: 1, denominator: 80 });
    for (const bad of ['60', '1/0', '60/60', '0/60', '1/60th', '', '-1/60']) {
      expect(readAccrualRate(bad)).toBeNull();
    }
  });
});

describe('a PRSA half-year', () => {
  it('accounts for the six months to 30 June: opening, paid in, costs, return and closing', () => {
    const movements: YearMovement[] = [
      ...monthly('employee', 30_000, 2026).slice(0, 6),
      ...Array.from({ length: 6 }, (_, index) => ({
        kind: 'charge' as const,
        on: `2026-0${index + 1}-01`,
        amountCents: -1_650,
      })),
      { kind: 'employee', on: '2025-12-31', amountCents: 30_000 },
      { kind: 'employee', on: '2026-07-01', amountCents: 30_000 },
    ];
    expect(
      prsaStatementOfAccount({
        periodEnd: '2026-06-30',
        openingCents: 2_000_000,
        closingCents: 2_215_037,
        movements,
      }),
    ).toEqual({
      from: '2026-01-01',
      to: '2026-06-30',
      openingCents: 2_000_000,
      contributionsCents: 180_000, // 6 × €300
      costsCents: 9_900, // 6 × €16.50
      investmentReturnCents: 44_937, // 22,150.37 − 20,000 − 1,800 + 99
      closingCents: 2_215_037,
    });
  });

  it('covers the second half-year from 1 July to 31 December', () => {
    const account = prsaStatementOfAccount({
      periodEnd: '2026-12-31',
      openingCents: 0,
      closingCents: 0,
      movements: [],
    });
    expect([account.from, account.to]).toEqual(['2026-07-01', '2026-12-31']);
  });
});

describe('the dates of a statement', () => {
  it('has members hold it within 6 months of the year end and the trustees a month before', () => {
    expect(membersByFor('2026-12-31')).toBe('2027-06-30');
    expect(administratorDate('2027-06-30')).toBe('2027-05-31');
    expect(administratorDate('2027-03-31')).toBe('2027-02-28');
  });
});

describe('the data checked before a statement', () => {
  const facts: MemberDataFacts = {
    schemeType: 'DC',
    status: 'active',
    normalRetirementAge: 65,
    accrualRate: null,
    fundingLevelPct: null,
    dateOfBirth: '1986-06-15',
    dateJoined: '2015-01-01',
    salaryCents: 5_000_000,
    informationDate: '2026-12-31',
    pricesMissing: false,
    fundValueCents: 4_000_000,
    yearContributionsCents: 660_000,
  };

  it('finds nothing in good data', () => {
    expect(checkMemberData(facts)).toEqual([]);
  });

  it('lists every problem, and guesses none', () => {
    expect(
      checkMemberData({
        ...facts,
        normalRetirementAge: null,
        dateJoined: '2027-01-01',
        salaryCents: 200_000_000,
        pricesMissing: true,
      }),
    ).toEqual([
      'no_retirement_age',
      'joined_after_information_date',
      'implausible_salary',
      'no_price',
    ]);
    expect(checkMemberData({ ...facts, dateOfBirth: '2015-01-01' })).toEqual(['implausible_age']);
    expect(checkMemberData({ ...facts, dateOfBirth: '1960-01-01' })).toEqual([
      'past_retirement_age',
    ]);
    expect(checkMemberData({ ...facts, fundValueCents: 0, yearContributionsCents: 0 })).toEqual([
      'no_value',
    ]);
    expect(checkMemberData({ ...facts, schemeType: 'DB', salaryCents: 0 })).toEqual([
      'no_accrual_rate',
      'no_funding_level',
      'no_salary',
    ]);
  });

  it('tells the scheme’s missing terms from the member’s own problems', () => {
    const db = { schemeType: 'DB' as const, normalRetirementAge: 65 };
    expect(missingSchemeTerms({ ...db, accrualRate: null, fundingLevelPct: null })).toEqual([
      'no_accrual_rate',
      'no_funding_level',
    ]);
    expect(missingSchemeTerms({ ...db, accrualRate: 'none', fundingLevelPct: 95 })).toEqual([
      'no_accrual_rate',
    ]);
    expect(missingSchemeTerms({ ...db, accrualRate: '1/60', fundingLevelPct: 95 })).toEqual([]);
    expect(missingSchemeTerms({ ...facts, normalRetirementAge: null })).toEqual([
      'no_retirement_age',
    ]);
    // A DC scheme has neither an accrual rate nor a funding level, and needs neither.
    expect(missingSchemeTerms(facts)).toEqual([]);
    expect(isSchemeDataIssue('no_funding_level')).toBe(true);
    expect(isSchemeDataIssue('no_value')).toBe(false);
  });

  it('says the information date in the words of a check made as at that date', () => {
    // Money recorded after the information date is not in the figures, so the member is said to
    // have none by that date, not none at all.
    expect(dataIssueWords('no_value', '2026-11-27')).toBe(
      'Nothing was paid in or invested for the member by the information date, 27 Nov 2026',
    );
    expect(dataIssueWords('joined_after_information_date', '2026-11-27')).toBe(
      'The member joined after the information date, 27 Nov 2026',
    );
    expect(dataIssueWords('no_accrual_rate', '2026-11-27')).toBe(DATA_ISSUES.no_accrual_rate);
  });

  it('bounds a normal retirement age by the oldest age of any scheme type’s window', () => {
    expect(NORMAL_RETIREMENT_AGES.to).toBe(RETIREMENT_AGE_RULES.RAC.to);
  });

  it('counts age in whole years', () => {
    expect(ageOn('1986-06-15', '2026-06-14')).toBe(39);
    expect(ageOn('1986-06-15', '2026-06-15')).toBe(40);
  });
});

describe('material changes since the last statement', () => {
  const last = {
    retirementAge: 65,
    assumptionsId: 'a',
    accrualRate: null,
    headlineCents: 1_000_000,
  };
  it('marks none on a first statement or a small move, and each change that is material', () => {
    expect(materialChanges(null, last)).toEqual([]);
    expect(materialChanges(last, { ...last, headlineCents: 1_200_000 })).toEqual([]);
    expect(
      materialChanges(last, {
        retirementAge: 66,
        assumptionsId: 'b',
        accrualRate: '1/60',
        headlineCents: 1_200_001,
      }),
    ).toEqual(['retirement_age', 'assumptions', 'accrual_rate', 'headline']);
  });
});

describe('the rules', () => {
  it('are cited to the regulations and labelled, the assumptions as the Authority’s guidance', () => {
    expect(STATEMENT_RULES.projections.citation).toBe('S.I. No. 128/2021 reg. 34');
    expect(STATEMENT_RULES.projectionAssumptions.label).toBe('guidance');
    expect(STATEMENT_RULES.projectionAssumptions.citation).toContain('10 March 2023');
    expect(STATEMENT_RULES.supplementary.citation).toBe('S.I. No. 128/2021 reg. 35');
    expect(PROJECTION_CAVEAT).toContain('not guarantees');
  });
});

describe('the benefit statements duty of the scheme year', () => {
  const facts = { yearEnd: '12-31', members: 5, addedOn: '2026-01-01' };
  const run = (status: string, issuedOn: string | null, membersBy = '2027-06-30') => ({
    informationDate: '2026-12-31',
    membersBy,
    status,
    issuedOn,
  });

  it('is due to the trustees a month before members must have them, while no run is ready', () => {
    expect(
      benefitStatementsObligation({ ...facts, statementRuns: [] }, '2027-05-20'),
    ).toMatchObject({
      kind: 'benefit_statements',
      dueOn: '2027-05-31',
      status: 'due_soon',
      label: 'law',
    });
    expect(
      benefitStatementsObligation(
        { ...facts, statementRuns: [run('running', null)] },
        '2027-06-01',
      ),
    ).toMatchObject({ dueOn: '2027-05-31', status: 'overdue' });
  });

  it('is due on the members’ date once prepared, and ok once issued on time', () => {
    expect(
      benefitStatementsObligation(
        { ...facts, statementRuns: [run('approved', null)] },
        '2027-06-01',
      ),
    ).toMatchObject({ dueOn: '2027-06-30', status: 'due_soon' });
    const done = benefitStatementsObligation(
      { ...facts, statementRuns: [run('issued', '2027-06-15')] },
      '2027-07-01',
    );
    expect(done).toMatchObject({ status: 'ok', dueOn: '2028-06-30' });
    expect(done.reason).toContain('issued on 15 Jun 2027');
  });

  it('is not ok when issued late, and follows the members’ date a run gives', () => {
    expect(
      benefitStatementsObligation(
        { ...facts, statementRuns: [run('issued', '2027-07-10')] },
        '2027-07-11',
      ),
    ).toMatchObject({ status: 'overdue', dueOn: '2027-06-30' });
    expect(
      benefitStatementsObligation(
        { ...facts, statementRuns: [run('issued', '2027-07-10', '2027-07-31')] },
        '2027-07-11',
      ).status,
    ).toBe('ok');
  });

  it('is not chased for a year that ended before the scheme was added, nor without members', () => {
    expect(
      benefitStatementsObligation(
        { ...facts, addedOn: '2027-02-01', statementRuns: [] },
        '2027-07-11',
      ),
    ).toMatchObject({ status: 'ok', dueOn: '2028-06-30' });
    expect(
      benefitStatementsObligation({ ...facts, members: 0, statementRuns: [] }, '2027-07-11').status,
    ).toBe('ok');
  });
});

describe('a statement’s file name', () => {
  it('names the member, surname first, and the information date, in ASCII', () => {
    expect(
      statementFileName({
        informationDate: '2026-10-31',
        firstName: 'Aoife',
        lastName: 'Ó Súilleabháin',
      }),
    ).toBe('pension-benefit-statement-o-suilleabhain-aoife-2026-10-31.pdf');
    expect(
      statementFileName({ informationDate: '2026-10-31', firstName: '"; x', lastName: '../' }),
    ).toBe('pension-benefit-statement-member-x-2026-10-31.pdf');
  });
});

describe('what a projection assumes of the years to come', () => {
  it('takes a year of contributions at the current rate from the months recorded', () => {
    const month = (period: string) => ({ period, amountCents: 48_000 });
    // Three months of €480 are €5,760 a year, not €1,440.
    expect(
      annualisedContributionCents([month('2026-08'), month('2026-09'), month('2026-10')]),
    ).toBe(576_000);
    // A month's employee and employer rows are one month.
    expect(
      annualisedContributionCents([
        { period: '2026-10', amountCents: 30_000 },
        { period: '2026-10', amountCents: 18_000 },
      ]),
    ).toBe(576_000);
    expect(annualisedContributionCents([])).toBe(0);
    expect(periodsOfYear('2026-10-31')).toEqual({ from: '2025-11', to: '2026-10' });
    expect(periodsOfYear('2026-10-15')).toEqual({ from: '2025-11', to: '2026-10' });
    expect(periodDay('2025-11') >= yearBefore('2026-10-15')).toBe(true);
  });

  it('charges what the funds the money is in charge, or where new money goes when none is invested', () => {
    const defaultFund = [{ percent: 100, annualChargeBasisPoints: 75 }];
    expect(projectionChargeBasisPoints([], defaultFund)).toBe(75);
    expect(
      projectionChargeBasisPoints([{ valueCents: 0, annualChargeBasisPoints: 25 }], defaultFund),
    ).toBe(75);
    expect(
      projectionChargeBasisPoints(
        [
          { valueCents: 300, annualChargeBasisPoints: 25 },
          { valueCents: 100, annualChargeBasisPoints: 75 },
        ],
        defaultFund,
      ),
    ).toBe(37.5);
    expect(
      projectionChargeBasisPoints(
        [],
        [
          { percent: 50, annualChargeBasisPoints: 100 },
          { percent: 50, annualChargeBasisPoints: 50 },
        ],
      ),
    ).toBe(75);
    expect(projectionChargeBasisPoints([], [])).toBe(0);
  });
});
