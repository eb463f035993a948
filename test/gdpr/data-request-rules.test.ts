import { describe, expect, it } from 'vitest';
import {
  DATA_REQUEST_RULES,
  dataRequestClock,
  dueOnFor,
  extendedDueOn,
  extensionRefusal,
  receivedOnRefusal,
} from '../../src/contracts/data-request-rules.js';
import { namesAProvision } from '../../src/contracts/rule-sources.js';

describe('data-subject request rules', () => {
  it('gives a month to answer: the same day next month, or that month’s last day', () => {
    expect(dueOnFor('2026-01-15')).toBe('2026-02-15');
    expect(dueOnFor('2026-01-31')).toBe('2026-02-28');
    expect(dueOnFor('2028-01-31')).toBe('2028-02-29');
    // The last day of a short month is not read as the end of a month.
    expect(dueOnFor('2026-04-30')).toBe('2026-05-30');
    expect(dueOnFor('2026-12-10')).toBe('2027-01-10');
  });

  it('extends by two months from the first due day', () => {
    expect(extendedDueOn('2026-02-15')).toBe('2026-04-15');
    expect(extendedDueOn('2026-02-28')).toBe('2026-04-28');
    expect(extendedDueOn('2026-12-31')).toBe('2027-02-28');
  });

  it('extends once, only within the first month, never a closed request', () => {
    const open = { status: 'open' as const, originalDueOn: '2026-02-15' };
    expect(extensionRefusal(open, '2026-02-15')).toBeNull();
    expect(extensionRefusal(open, '2026-02-16')).toBe('first_month_over');
    expect(extensionRefusal({ ...open, status: 'extended' }, '2026-02-01')).toBe(
      'already_extended',
    );
    expect(extensionRefusal({ ...open, status: 'completed' }, '2026-02-01')).toBe('closed');
    expect(extensionRefusal({ ...open, status: 'refused' }, '2026-02-01')).toBe('closed');
  });

  it('takes a day of receipt not after today and not before the member joined', () => {
    expect(receivedOnRefusal('2026-03-01', '2026-03-01', '2015-09-01')).toBeNull();
    expect(receivedOnRefusal('2026-03-02', '2026-03-01', '2015-09-01')).toBe('date_in_future');
    expect(receivedOnRefusal('2015-08-31', '2026-03-01', '2015-09-01')).toBe(
      'before_member_joined',
    );
  });

  it('counts the days left, then overdue from the day after the due day, in words', () => {
    const request = { status: 'open' as const, dueOn: '2026-02-15', closedOn: null };
    expect(dataRequestClock(request, '2026-02-14')).toEqual({
      state: 'due',
      daysLeft: 1,
      words: '1 day left: due on 15 Feb 2026',
    });
    expect(dataRequestClock(request, '2026-02-15')).toMatchObject({
      state: 'due_today',
      daysLeft: 0,
    });
    expect(dataRequestClock(request, '2026-02-18')).toEqual({
      state: 'overdue',
      daysLeft: -3,
      words: 'Overdue by 3 days: it was due on 15 Feb 2026',
    });
  });

  it('says whether a closed request was answered in time', () => {
    const closed = { status: 'completed' as const, dueOn: '2026-04-15' };
    expect(dataRequestClock({ ...closed, closedOn: '2026-04-15' }, '2026-06-01')).toMatchObject({
      state: 'answered',
      words: 'Answered in time',
    });
    expect(dataRequestClock({ ...closed, closedOn: '2026-04-17' }, '2026-06-01')).toMatchObject({
      state: 'answered_late',
      words: 'Answered 2 days after its due date',
    });
  });

  it('cites a provision for every rule labelled law, and none for product policy', () => {
    for (const source of Object.values(DATA_REQUEST_RULES)) {
      expect(namesAProvision(source.citation)).toBe(source.label === 'law');
    }
  });
});
