import { describe, expect, it } from 'vitest';
import { MAX_VALUE_POINTS } from '../../../contracts/investments.js';
import { valuePointDays } from './holdings.rules.js';

describe('the days a value history is read on', () => {
  it('are each month end from the month it starts in, then today', () => {
    expect(valuePointDays('2025-11-15', '2026-02-10')).toEqual([
      '2025-11-30',
      '2025-12-31',
      '2026-01-31',
      '2026-02-10',
    ]);
  });

  it('count February’s end in a leap year, and today when today is a month end', () => {
    expect(valuePointDays('2024-02-01', '2024-03-31')).toEqual(['2024-02-29', '2024-03-31']);
  });

  it('are today alone when the history starts this month', () => {
    expect(valuePointDays('2026-02-03', '2026-02-10')).toEqual(['2026-02-10']);
  });

  it('are spaced out past the most a history shows, keeping the latest month end', () => {
    const days = valuePointDays('1986-01-01', '2026-02-10');
    expect(days.length).toBeLessThanOrEqual(MAX_VALUE_POINTS);
    expect(days.at(-1)).toBe('2026-02-10');
    expect(days.at(-2)).toBe('2026-01-31');
    // Evenly: 481 month ends, one in five kept, counted back from January 2026.
    expect(days.at(-3)).toBe('2025-08-31');
    expect(days.at(-4)).toBe('2025-03-31');
    expect(new Set(days).size).toBe(days.length);
  });
});
