import { describe, expect, it } from 'vitest';
import {
  AE_STATUS_LABELS,
  AE_STATUSES,
  costComparison,
} from '../../../contracts/auto-enrolment-rules';
import {
  arrangementChoices,
  costRows,
  costSpan,
  costTotals,
  inOrderOfAction,
  percentOfPay,
  periodsCovered,
  STATUS_ORDER,
  withStatus,
} from './ae-helpers';

describe('the auto-enrolment pages’ helpers', () => {
  it('order every status of the rule module once, what needs acting on first', () => {
    expect([...STATUS_ORDER].sort()).toEqual([...AE_STATUSES].sort());
    expect(STATUS_ORDER[0]).toBe('below_standard');
    expect(new Set(Object.values(AE_STATUS_LABELS)).size).toBe(AE_STATUSES.length);
  });

  it('filter the employees by status, or keep them all in their order', () => {
    const employees = [
      { id: 'a', status: 'exempt' as const },
      { id: 'b', status: 'below_standard' as const },
      { id: 'c', status: 'exempt' as const },
    ];
    expect(withStatus(employees, 'exempt').map((e) => e.id)).toEqual(['a', 'c']);
    expect(withStatus(employees, 'likely_enrolled')).toEqual([]);
    expect(withStatus(employees, 'all').map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  it('order the employees by what needs acting on, then the largest shortfall, then by name', () => {
    const employees = [
      { id: 'exempt', status: 'exempt' as const, lastName: 'Ahern' },
      { id: 'db', status: 'likely_exempt' as const, lastName: 'Daly' },
      { id: 'small', status: 'below_standard' as const, shortfallCents: 100, lastName: 'Byrne' },
      { id: 'large', status: 'below_standard' as const, shortfallCents: 9_000, lastName: 'Walsh' },
      { id: 'ó', status: 'likely_enrolled' as const, lastName: 'Ó Briain' },
      { id: 'o', status: 'likely_enrolled' as const, lastName: 'Nolan' },
      { id: 'young', status: 'not_eligible' as const },
    ];
    expect(inOrderOfAction(employees).map((e) => e.id)).toEqual([
      'large',
      'small',
      'o',
      'ó',
      'db',
      'exempt',
      'young',
    ]);
  });

  it('show rates in basis points as a percentage of pay', () => {
    expect(percentOfPay(150)).toBe('1.5%');
    expect(percentOfPay(600)).toBe('6%');
    expect(percentOfPay(350)).toBe('3.5%');
  });

  it('lay the ten years of the comparison out by calendar year, with their difference and totals', () => {
    const years = costComparison([
      { reckonablePayCentsAYear: 4_000_000, employerCentsAYear: 0, employeeCentsAYear: 0 },
    ]);
    const rows = costRows(years);
    expect(rows).toHaveLength(10);
    // Year 1 of the rate schedule is 2026; the rate rises in 2029, 2032 and 2035.
    expect(rows[0]).toMatchObject({ year: 2026, label: '2026', rate: '1.5%' });
    expect(rows.map((row) => row.label)).not.toContain('Year 1');
    expect(rows[3]).toMatchObject({ label: '2029', rate: '3%' });
    expect(rows[9]).toMatchObject({ label: '2035', rate: '6%' });
    expect(costSpan(rows)).toBe('2026 to 2035');
    expect(costSpan([])).toBe('');
    for (const row of rows) {
      expect(row.differenceCents).toBe(row.myFutureFundCents - row.minimumStandardCents);
    }
    const totals = costTotals(rows);
    expect(totals.myFutureFundCents).toBe(years.reduce((sum, y) => sum + y.myFutureFundCents, 0));
    expect(totals.minimumStandardCents).toBe(10 * (years[0]?.minimumStandardCents ?? 0));
  });

  it('say which days and how many pay periods an upload covers, and none for one that wrote nothing', () => {
    expect(
      periodsCovered({ payPeriods: 3, periodStart: '2026-01-01', periodEnd: '2026-03-31' }),
    ).toBe('1 Jan 2026 to 31 Mar 2026 (3 periods)');
    expect(
      periodsCovered({ payPeriods: 1, periodStart: '2026-01-05', periodEnd: '2026-01-11' }),
    ).toBe('5 Jan 2026 to 11 Jan 2026 (1 period)');
    expect(periodsCovered({ payPeriods: 0, periodStart: null, periodEnd: null })).toBe('None');
  });
});

describe('the schemes a payroll file’s Arrangement column may name', () => {
  it('are named, and given by id only where another scheme shares the name', () => {
    const choices = arrangementChoices([
      { id: 'sazg4m01', name: 'Bantry Staff Pension' },
      { id: 'sq7k2x02', name: 'Directors’ Plan' },
      { id: 'sq7k2x03', name: ' directors’  plan' },
    ]);
    expect(choices.map((scheme) => [scheme.name, scheme.sharesName])).toEqual([
      ['Bantry Staff Pension', false],
      ['Directors’ Plan', true],
      [' directors’  plan', true],
    ]);
  });
});
