import { describe, expect, it } from 'vitest';
import {
  breachClock,
  clockInWords,
  dpcDeadline,
  needsDelayReason,
} from '../../src/contracts/data-breach-rules.js';

/** The 72-hour clock of a breach (src/contracts/data-breach-rules.ts), worked to the minute. */
describe('the Commission’s deadline', () => {
  const aware = new Date('2026-01-09T10:15:00Z'); // a Friday

  it('is 72 hours after awareness, weekend included: Friday 10:15 to Monday 10:15', () => {
    expect(dpcDeadline(aware).toISOString()).toBe('2026-01-12T10:15:00.000Z');
  });

  it('asks for the reasons for a delay only after the deadline', () => {
    expect(needsDelayReason(aware, new Date('2026-01-12T10:15:00Z'))).toBe(false);
    expect(needsDelayReason(aware, new Date('2026-01-12T10:16:00Z'))).toBe(true);
  });

  it('counts whole hours down, and then overdue, in words', () => {
    const facts = { becameAwareAt: aware, riskToPeople: 'risk' as const, dpcNotifiedAt: null };
    const early = breachClock(facts, new Date('2026-01-12T08:14:00Z'));
    expect(early).toEqual({ running: true, hoursLeft: 2, overdue: false, hoursOverdue: 0 });
    expect(clockInWords(early, false)).toBe(
      '2 hours left to notify the Data Protection Commission',
    );
    const late = breachClock(facts, new Date('2026-01-12T13:20:00Z'));
    expect(late).toEqual({ running: true, hoursLeft: 0, overdue: true, hoursOverdue: 3 });
    expect(clockInWords(late, false)).toMatch(/^Overdue by 3 hours/);
  });

  it('runs no clock for a breach unlikely to risk people', () => {
    const clock = breachClock(
      { becameAwareAt: aware, riskToPeople: 'unlikely', dpcNotifiedAt: null },
      new Date('2026-02-01T00:00:00Z'),
    );
    expect(clock.running).toBe(false);
    expect(clockInWords(clock, false)).toMatch(/^No notification to the Commission needed/);
  });
});
