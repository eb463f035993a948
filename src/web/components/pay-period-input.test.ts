import { describe, expect, it } from 'vitest';
import {
  currentPayPeriodEntry,
  PAY_PERIOD_PLACEHOLDER,
  payPeriodRule,
  readPayPeriod,
} from './PayPeriodInput';

/**
 * A pay period field's grey placeholder once read "10/2026", which looked filled in; pressing
 * "Enter or correct this period" then said "This is required". The placeholder is now the form in
 * letters, which no rule reads as a period, and the field can start at this month.
 */
describe('the pay period field', () => {
  it('has a placeholder that is a hint, never a period', () => {
    expect(PAY_PERIOD_PLACEHOLDER).toBe('MM/YYYY');
    expect(readPayPeriod(PAY_PERIOD_PLACEHOLDER)).toBeNull();
  });

  it('starts at this month in Ireland, a period the form accepts', () => {
    // Irish time is UTC in winter and an hour ahead in summer: 23:30 UTC on 31 October is still
    // October there, on 31 July already August.
    expect(currentPayPeriodEntry(new Date('2026-10-31T23:30:00Z'))).toBe('10/2026');
    expect(currentPayPeriodEntry(new Date('2026-07-31T23:30:00Z'))).toBe('08/2026');
    expect(payPeriodRule(currentPayPeriodEntry())).toBeNull();
  });
});
