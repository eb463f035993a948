import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * A member's value history (docs/decisions/0127-dc-money.md, "Reading"): at each month end and
 * today, what the holdings were worth that day, read as the holdings themselves are, beside the
 * money paid in by then. The figures are worked by hand.
 */
const clock = testClock('2026-01-05');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

describe('a member’s value history', () => {
  it('values each month end at that day’s prices, money waiting included, from the first money received', async () => {
    clock.at('2026-01-05');
    const s = await dcScheme(t, [{ name: 'Equity' }]);
    const [equity = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: equity, percent: 100 }]);
    await s.contribute(member, { period: '2026-01', amountCents: 10_000 });
    await s.prices(equity, [{ on: '2026-01-05', price: '1.000000' }]);
    await runInvestments(t);

    // February: the price rises by a quarter; a second €100 arrives on the last day, unpriced.
    clock.at('2026-02-27');
    await s.prices(equity, [{ on: '2026-02-27', price: '1.250000' }]);
    clock.at('2026-02-28');
    await s.contribute(member, { period: '2026-02', amountCents: 10_000 });

    // March: it is bought at €1.60; 100 + 62.5 units, at €1.60 on 3 March.
    clock.at('2026-03-03');
    await s.prices(equity, [{ on: '2026-03-03', price: '1.600000' }]);
    await runInvestments(t);
    const read = await s.staff.get(`/api/members/${member}/value-history`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      from: '2026-01-05',
      to: '2026-03-03',
      points: [
        { on: '2026-01-31', valueCents: 10_000, paidInCents: 10_000 },
        // 100 units at €1.25, and €100 received that day and not yet invested.
        { on: '2026-02-28', valueCents: 22_500, paidInCents: 20_000 },
        { on: '2026-03-03', valueCents: 26_000, paidInCents: 20_000 },
      ],
    });
    // Each point is what the holdings read on its day.
    expect((await s.holdings(member, '2026-02-28')).valueCents).toBe(22_500);

    // Asked from a later day, it starts there.
    const later = await s.staff.get(`/api/members/${member}/value-history?from=2026-02-10`);
    expect(later.json().points.map((point: { on: string }) => point.on)).toEqual([
      '2026-02-28',
      '2026-03-03',
    ]);
    // Asked from long before any money, it starts at the first money received, not in year 1.
    const early = await s.staff.get(`/api/members/${member}/value-history?from=0001-01-01`);
    expect(early.json()).toMatchObject({ from: '2026-01-05', to: '2026-03-03' });
    expect(early.json().points).toHaveLength(3);
    // The member reads their own.
    expect((await s.as(s.self).get(`/api/members/${member}/value-history`)).statusCode).toBe(200);
  });

  it('is today alone, at nothing, for a member with no money yet', async () => {
    clock.at('2026-04-10');
    const s = await dcScheme(t, [{ name: 'Equity' }]);
    const read = await s.staff.get(`/api/members/${s.members[0]?.id}/value-history`);
    expect(read.json()).toEqual({
      from: '2026-04-10',
      to: '2026-04-10',
      points: [{ on: '2026-04-10', valueCents: 0, paidInCents: 0 }],
    });
  });
});
