import { describe, expect, it } from 'vitest';
import { MAX_CENTS } from './money.js';
import {
  copyFromPeriod,
  type FillRow,
  fillFromSalary,
  monthlyContributionCents,
  previousPeriod,
} from './payroll-fill.js';
import { MAX_RATE_BASIS_POINTS } from './percent.js';

const row = (overrides: Partial<FillRow> & { memberId: string }): FillRow => ({
  status: 'active',
  statusOn: null,
  salaryCents: 4_800_000,
  employee: null,
  employer: null,
  avc: null,
  ...overrides,
});

describe('monthlyContributionCents', () => {
  it('is a month of the annual salary at the rate, in whole cents', () => {
    // €48,000 a year at 5%: €2,400 a year, €200 a month.
    expect(monthlyContributionCents(4_800_000, 500)).toBe(20_000);
    // €45,000 at 7.5%: €281.25 a month exactly.
    expect(monthlyContributionCents(4_500_000, 750)).toBe(28_125);
    expect(monthlyContributionCents(0, 500)).toBe(0);
    expect(monthlyContributionCents(4_800_000, 0)).toBe(0);
  });

  it('rounds to the nearest cent, a half cent up', () => {
    // €40,001 at 5%: 166.670833… a month, down to €166.67.
    expect(monthlyContributionCents(4_000_100, 500)).toBe(16_667);
    // €33,333.33 at 6%: 166.66665 a month, up to €166.67.
    expect(monthlyContributionCents(3_333_333, 600)).toBe(16_667);
    // 100 cents at 6% for a month is 0.5 cent exactly: a half cent goes up.
    expect(monthlyContributionCents(100, 600)).toBe(1);
    // 99 cents at 6% is 0.495 cent: down.
    expect(monthlyContributionCents(99, 600)).toBe(0);
  });

  it('stays exact at the largest salary and rate', () => {
    expect(Number.isSafeInteger(MAX_CENTS * MAX_RATE_BASIS_POINTS * 2)).toBe(true);
    expect(monthlyContributionCents(MAX_CENTS, MAX_RATE_BASIS_POINTS)).toBe(
      Math.round(MAX_CENTS / 12),
    );
  });

  it('agrees with a reading by whole-number division for every rate on a salary', () => {
    for (let basisPoints = 0; basisPoints <= MAX_RATE_BASIS_POINTS; basisPoints += 7) {
      const numerator = BigInt(3_456_789) * BigInt(basisPoints);
      const whole = numerator / 120_000n;
      const rest = numerator % 120_000n;
      const expected = Number(rest * 2n >= 120_000n ? whole + 1n : whole);
      expect(monthlyContributionCents(3_456_789, basisPoints)).toBe(expected);
    }
  });
});

describe('previousPeriod', () => {
  it('is the month before, across a year end', () => {
    expect(previousPeriod('2026-03')).toBe('2026-02');
    expect(previousPeriod('2026-10')).toBe('2026-09');
    expect(previousPeriod('2026-01')).toBe('2025-12');
  });
});

describe('copyFromPeriod', () => {
  it("copies last month's amounts into the open cells of the members still in the grid", () => {
    const rows = [
      row({ memberId: 'a' }),
      row({ memberId: 'b', employee: { amountCents: 9_000 } }),
      row({ memberId: 'new' }),
      row({ memberId: 'left', status: 'left', statusOn: '2026-01-31' }),
    ];
    const previous = [
      {
        memberId: 'a',
        employee: { amountCents: 20_000 },
        employer: { amountCents: 30_000 },
        avc: null,
      },
      {
        memberId: 'b',
        employee: { amountCents: 10_000 },
        employer: null,
        avc: { amountCents: 5_000 },
      },
      { memberId: 'left', employee: { amountCents: 1_000 }, employer: null, avc: null },
      { memberId: 'gone', employee: { amountCents: 1_000 }, employer: null, avc: null },
    ];
    expect(copyFromPeriod(rows, previous, '2026-02')).toEqual({
      a: { employee: 20_000, employer: 30_000 },
      // Its recorded employee amount is kept; only the open AVC cell is filled.
      b: { avc: 5_000 },
    });
  });
});

describe('fillFromSalary', () => {
  it('fills the employee and employer cells from each salary, leaving recorded cells, leavers and members without a salary', () => {
    const rows = [
      row({ memberId: 'a', salaryCents: 4_800_000 }),
      row({ memberId: 'b', salaryCents: 3_600_000, employer: { amountCents: 1 } }),
      row({ memberId: 'none', salaryCents: 0 }),
      row({ memberId: 'left', status: 'left', statusOn: '2026-01-15' }),
    ];
    expect(fillFromSalary(rows, { employee: 500, employer: 750 }, '2026-02')).toEqual({
      a: { employee: 20_000, employer: 30_000 },
      b: { employee: 15_000 },
    });
  });

  it('fills only the kinds given a rate', () => {
    const rows = [row({ memberId: 'a', salaryCents: 4_800_000 })];
    expect(fillFromSalary(rows, { employee: null, employer: 600 }, '2026-02')).toEqual({
      a: { employer: 24_000 },
    });
  });
});
