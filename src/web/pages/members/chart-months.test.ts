import { describe, expect, it } from 'vitest';
import { chartMonths, nextMonth } from './chart-months';

describe('the months of a member’s contributions chart', () => {
  it('starts at the month a member joined when that is within the range, not at the range’s start', () => {
    const months = chartMonths({
      rangeFrom: '2024-12',
      joinedOn: '2026-01-15',
      periods: ['2026-03', '2026-01', '2026-02'],
      thisMonth: '2026-11',
    });
    expect(months[0]).toBe('2026-01');
    expect(months.at(-1)).toBe('2026-11');
    expect(months).toHaveLength(11);
  });

  it('starts at the range’s first month for a member who joined before it', () => {
    const months = chartMonths({
      rangeFrom: '2024-12',
      joinedOn: '2011-05-01',
      periods: ['2026-01'],
      thisMonth: '2026-11',
    });
    expect(months[0]).toBe('2024-12');
    expect(months).toHaveLength(24);
  });

  it('starts at a contribution payroll recorded before the member’s joining month', () => {
    const months = chartMonths({
      rangeFrom: '2024-12',
      joinedOn: '2026-03-01',
      periods: ['2026-02', '2026-03'],
      thisMonth: '2026-04',
    });
    expect(months).toEqual(['2026-02', '2026-03', '2026-04']);
  });

  it('starts “All” at the first contribution, and runs on to a month payroll ran ahead to', () => {
    expect(
      chartMonths({
        rangeFrom: undefined,
        joinedOn: '2011-05-01',
        periods: ['2027-01', '2026-11'],
        thisMonth: '2026-11',
      }),
    ).toEqual(['2026-11', '2026-12', '2027-01']);
  });

  it('shows no months when nothing was paid in the range', () => {
    expect(
      chartMonths({
        rangeFrom: '2024-12',
        joinedOn: '2026-01-01',
        periods: [],
        thisMonth: '2026-11',
      }),
    ).toEqual([]);
  });

  it('counts a year’s end into the next year', () => {
    expect(nextMonth('2025-12')).toBe('2026-01');
    expect(nextMonth('2026-09')).toBe('2026-10');
  });
});
