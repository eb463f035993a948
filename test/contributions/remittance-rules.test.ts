import { describe, expect, it } from 'vitest';
import {
  addToMonth,
  chasedFrom,
  daysLate,
  fullyReceivedOn,
  monthsBetween,
  REMITTANCE_RULES,
  remittanceDueOn,
  remittanceDuty,
  remittanceMonths,
  remittanceStatus,
} from '../../src/contracts/remittance-rules.js';

/**
 * Contribution remittance against worked dates (docs/decisions/0136-contribution-remittance.md):
 * the deductions of a month are due at the scheme 21 days after its last day (Pensions Act 1990
 * s.58A).
 */

describe('the day a month’s deductions are due', () => {
  it('is the 21st day after the month’s last day, whatever the month’s length', () => {
    expect(remittanceDueOn('2026-01')).toBe('2026-02-21');
    expect(remittanceDueOn('2026-02')).toBe('2026-03-21');
    expect(remittanceDueOn('2028-02')).toBe('2028-03-21');
    expect(remittanceDueOn('2026-04')).toBe('2026-05-21');
    expect(remittanceDueOn('2026-12')).toBe('2027-01-21');
  });

  it('cites s.58A as the law it comes from', () => {
    expect(REMITTANCE_RULES.remittance).toEqual({
      label: 'law',
      citation: 'Pensions Act 1990 s.58A',
    });
    expect(REMITTANCE_RULES.whatIsDeducted.label).toBe('product_policy');
  });

  it('counts months across a year’s end', () => {
    expect(addToMonth('2026-11', 2)).toBe('2027-01');
    expect(addToMonth('2026-01', -1)).toBe('2025-12');
    expect(monthsBetween('2025-11', '2026-02')).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
    expect(monthsBetween('2026-02', '2026-01')).toEqual([]);
  });
});

describe('where a month stands', () => {
  const january = { month: '2026-01', expectedCents: 50_000, dueOn: '2026-02-21' };

  it('is on time when received in full on day 21, and late on day 22', () => {
    expect(
      remittanceStatus(
        { ...january, receivedCents: 50_000, fullyReceivedOn: '2026-02-21' },
        '2026-06-01',
        '2026-01',
      ),
    ).toBe('on_time');
    expect(
      remittanceStatus(
        { ...january, receivedCents: 50_000, fullyReceivedOn: '2026-02-22' },
        '2026-06-01',
        '2026-01',
      ),
    ).toBe('late');
  });

  it('is due until its day has passed when not received in full, and missing after', () => {
    const unpaid = { ...january, receivedCents: 0, fullyReceivedOn: null };
    expect(remittanceStatus(unpaid, '2026-02-21', '2026-01')).toBe('due');
    expect(remittanceStatus(unpaid, '2026-02-22', '2026-01')).toBe('missing');
    const part = { ...january, receivedCents: 49_999, fullyReceivedOn: null };
    expect(remittanceStatus(part, '2026-02-10', '2026-01')).toBe('due');
    expect(remittanceStatus(part, '2026-03-01', '2026-01')).toBe('missing');
  });

  it('is not chased before the month the first scheme was added, unless received in full', () => {
    const unpaid = { ...january, receivedCents: 0, fullyReceivedOn: null };
    expect(remittanceStatus(unpaid, '2026-02-10', '2026-02')).toBe('not_chased');
    expect(remittanceStatus(unpaid, '2026-06-01', '2026-02')).toBe('not_chased');
    expect(remittanceStatus(unpaid, '2026-06-01', null)).toBe('not_chased');
    // A payment recorded as received late is a fact whatever its month.
    expect(
      remittanceStatus(
        { ...january, receivedCents: 50_000, fullyReceivedOn: '2026-03-01' },
        '2026-06-01',
        '2026-02',
      ),
    ).toBe('late');
  });

  it('is chased from the month of the earliest day a scheme was added, that month included', () => {
    expect(chasedFrom(['2026-11-29', '2027-01-04'])).toBe('2026-11');
    expect(chasedFrom([])).toBeNull();
  });

  it('counts more than was expected as received in full', () => {
    expect(
      remittanceStatus(
        { ...january, receivedCents: 60_000, fullyReceivedOn: '2026-02-03' },
        '2026-06-01',
        '2026-01',
      ),
    ).toBe('on_time');
  });
});

describe('the day a month was received in full', () => {
  it('is the day its receipts first reached what was expected, each day’s taken together', () => {
    const receipts = [
      { receivedOn: '2026-02-25', amountCents: 10_000 },
      { receivedOn: '2026-02-10', amountCents: 30_000 },
      { receivedOn: '2026-02-18', amountCents: 15_000 },
      { receivedOn: '2026-02-18', amountCents: 5_000 },
    ];
    expect(fullyReceivedOn(receipts, 50_000)).toBe('2026-02-18');
    expect(fullyReceivedOn(receipts, 50_001)).toBe('2026-02-25');
    expect(fullyReceivedOn(receipts, 60_001)).toBeNull();
    expect(fullyReceivedOn(receipts, 0)).toBe('2026-02-10');
    expect(fullyReceivedOn([], 1)).toBeNull();
  });
});

describe('an employer’s months', () => {
  const expected = new Map([
    ['2026-01', 50_000],
    ['2026-02', 50_000],
    ['2026-03', 50_000],
    ['2026-04', 52_000],
    ['2026-05', 0],
  ]);
  const receipts = [
    { month: '2026-01', receivedOn: '2026-02-21', amountCents: 50_000 },
    { month: '2026-02', receivedOn: '2026-03-22', amountCents: 50_000 },
    // March never paid; April in part; a receipt for June, which payroll has not reached yet.
    { month: '2026-04', receivedOn: '2026-05-20', amountCents: 40_000 },
    { month: '2026-06', receivedOn: '2026-07-03', amountCents: 1_000 },
  ];
  const deducted = [...expected].map(([month, expectedCents]) => ({ month, expectedCents }));
  const months = remittanceMonths({ deducted, receipts }, '2026-07-10', '2026-01');

  it('lists each month with anything expected or received, oldest first', () => {
    expect(months.map((month) => [month.month, month.status])).toEqual([
      ['2026-01', 'on_time'],
      ['2026-02', 'late'],
      ['2026-03', 'missing'],
      ['2026-04', 'missing'],
      ['2026-06', 'on_time'],
    ]);
    expect(months[0]).toEqual({
      month: '2026-01',
      dueOn: '2026-02-21',
      expectedCents: 50_000,
      receivedCents: 50_000,
      receivedOn: '2026-02-21',
      status: 'on_time',
    });
    expect(months[3]).toMatchObject({ receivedCents: 40_000, receivedOn: null });
  });

  it('counts the days late: after the due day for a late one, to today for a missing one', () => {
    const [onTime, late, missing] = months;
    expect(daysLate(onTime as (typeof months)[number], '2026-07-10')).toBe(0);
    expect(daysLate(late as (typeof months)[number], '2026-07-10')).toBe(1);
    // Due 21 April 2026; 80 days later on 10 July.
    expect(daysLate(missing as (typeof months)[number], '2026-07-10')).toBe(80);
  });
});

describe('the remittance duty of a scheme', () => {
  const month = (
    name: string,
    status: 'on_time' | 'late' | 'due' | 'missing' | 'not_chased',
    receivedCents = 0,
  ) => ({
    month: name,
    dueOn: remittanceDueOn(name),
    expectedCents: 10_000,
    receivedCents,
    receivedOn: status === 'on_time' || status === 'late' ? remittanceDueOn(name) : null,
    status,
  });

  it('is overdue while a month is missing, naming the earliest and its due day in words', () => {
    const duty = remittanceDuty(
      [month('2026-08', 'on_time'), month('2026-09', 'missing'), month('2026-10', 'missing', 10)],
      '2026-11-28',
      '2026-08',
    );
    expect(duty).toEqual({
      dueOn: '2026-10-21',
      status: 'overdue',
      reason:
        'The deductions for Sep 2026 were due at the scheme by 21 Oct 2026 and are not received; 1 later month is missing too',
    });
  });

  it('is due soon for the next month not yet received, and done when every month is in', () => {
    expect(
      remittanceDuty([month('2026-10', 'late'), month('2026-11', 'due')], '2026-11-28', '2026-10'),
    ).toEqual({
      dueOn: '2026-12-21',
      status: 'due_soon',
      reason:
        'The deductions for Nov 2026 are not yet received: due at the scheme by 21 Dec 2026, 21 days after the month’s end',
    });
    const done = remittanceDuty(
      [month('2026-10', 'late'), month('2026-11', 'on_time')],
      '2026-12-28',
      '2026-10',
    );
    expect(done.status).toBe('ok');
    expect(done.dueOn).toBeUndefined();
    expect(done.reason).toContain('1 month was received late');
    expect(remittanceDuty([], '2026-12-28', '2026-10')).toMatchObject({ status: 'ok' });
  });

  it('does not count a month not chased, and says from which month it chases', () => {
    expect(remittanceDuty([month('2026-10', 'not_chased')], '2026-11-29', '2026-11')).toEqual({
      status: 'ok',
      reason:
        'No deductions are recorded for Nov 2026, the month the scheme was added to this service, or later: months before it are not chased',
    });
  });
});
