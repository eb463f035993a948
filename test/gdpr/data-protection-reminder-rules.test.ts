import { describe, expect, it } from 'vitest';
import {
  breachReminderStage,
  requestReminderStage,
} from '../../src/contracts/data-protection-reminder-rules.js';

/** When a request or a breach is reminded of (docs/decisions/0147-data-protection-reminders.md). */
describe('a request’s reminder stage', () => {
  const open = (dueOn: string) => ({ status: 'open' as const, dueOn });
  it('is none until 7 days before the due day, then 7 days, 2 days and overdue', () => {
    expect(requestReminderStage(open('2026-03-20'), '2026-03-12')).toBeNull();
    expect(requestReminderStage(open('2026-03-20'), '2026-03-13')).toBe('before_7');
    expect(requestReminderStage(open('2026-03-20'), '2026-03-17')).toBe('before_7');
    expect(requestReminderStage(open('2026-03-20'), '2026-03-18')).toBe('before_2');
    expect(requestReminderStage(open('2026-03-20'), '2026-03-20')).toBe('before_2');
    expect(requestReminderStage(open('2026-03-20'), '2026-03-21')).toBe('overdue');
  });
  it('is none once the request is completed or refused, and runs while extended', () => {
    expect(requestReminderStage({ status: 'completed', dueOn: '2026-03-20' }, '2026-03-19')).toBe(
      null,
    );
    expect(requestReminderStage({ status: 'refused', dueOn: '2026-03-20' }, '2026-03-25')).toBe(
      null,
    );
    expect(requestReminderStage({ status: 'extended', dueOn: '2026-05-20' }, '2026-05-19')).toBe(
      'before_2',
    );
  });
});

describe('a breach’s reminder stage', () => {
  const becameAwareAt = new Date('2026-07-06T09:30:00Z');
  const open = { status: 'open' as const, riskToPeople: 'risk' as const, becameAwareAt };
  it('is 48 hours, 12 hours, then overdue, counted to the minute from awareness', () => {
    expect(breachReminderStage(open, new Date('2026-07-07T09:29:00Z'))).toBeNull();
    expect(breachReminderStage(open, new Date('2026-07-07T09:30:00Z'))).toBe('hours_48');
    expect(breachReminderStage(open, new Date('2026-07-08T21:29:00Z'))).toBe('hours_48');
    expect(breachReminderStage(open, new Date('2026-07-08T21:30:00Z'))).toBe('hours_12');
    expect(breachReminderStage(open, new Date('2026-07-09T09:30:00Z'))).toBe('overdue');
  });
  it('is none once the Commission is told, the breach closed, or it is unlikely to risk people', () => {
    const late = new Date('2026-07-10T00:00:00Z');
    expect(breachReminderStage({ ...open, status: 'notified' }, late)).toBeNull();
    expect(breachReminderStage({ ...open, status: 'closed' }, late)).toBeNull();
    expect(breachReminderStage({ ...open, riskToPeople: 'unlikely' }, late)).toBeNull();
    expect(breachReminderStage({ ...open, riskToPeople: 'high' }, late)).toBe('overdue');
  });
});
