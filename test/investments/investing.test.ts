import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * Money invested (docs/decisions/0127-dc-money.md): in the fund choice in force on the day it was
 * received, split by whole percent with the odd cents to the largest remainders, each part buying
 * at its fund's first price on or after that day; waiting while any fund of the split has no such
 * price; in the scheme's default fund without a choice, and waiting, listed as needing a fund,
 * without either. The figures are worked by hand: units = cents × 10^10 / price in millionths,
 * rounded half away from zero to 6 places.
 */
const clock = testClock('2026-01-10');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

describe('investing contributions', () => {
  it('splits €100.01 60/40 (the odd cent to the larger remainder) and buys units that reconcile to the cent, once both funds are priced', async () => {
    clock.at('2026-01-10');
    const s = await dcScheme(t, [
      { name: 'Global Equity', annualChargeBasisPoints: 150 },
      { name: 'Euro Bonds' },
    ]);
    const [equity = '', bonds = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [
      { fundId: equity, percent: 60 },
      { fundId: bonds, percent: 40 },
    ]);
    const paid = await s.contribute(member, { period: '2026-01', amountCents: 10_001 });
    expect(paid.receivedOn).toBe('2026-01-10');

    // Only one fund of the split priced: the whole sum waits.
    clock.at('2026-01-12');
    await s.prices(equity, [{ on: '2026-01-12', price: '1.234567' }]);
    expect(await runInvestments(t)).toMatchObject({ invested: 0, waiting: 1 });
    expect(await s.holdings(member)).toMatchObject({
      valueCents: 10_001,
      funds: [],
      uninvestedCents: 10_001,
      switchingCents: 0,
      defaultFund: false,
      needsFund: false,
    });

    // The price arrives: invested at each fund's first price on or after 10 January.
    clock.at('2026-01-13');
    await s.prices(bonds, [{ on: '2026-01-13', price: '2' }]);
    expect(await runInvestments(t)).toMatchObject({ invested: 2, waiting: 0 });
    const holdings = await s.holdings(member);
    // 60% of 10,001 is 6,000.6 and 40% is 4,000.4: the cent left over goes to the larger remainder.
    // 6,001 × 10^10 / 1,234,567 = 48,608,135.1… millionths; 4,000 × 10^10 / 2,000,000 = 20,000,000.
    expect(holdings).toEqual({
      on: '2026-01-13',
      valueCents: 10_001,
      funds: [
        {
          fundId: equity,
          fundName: 'Global Equity',
          units: '48.608135',
          price: '1.234567',
          priceOn: '2026-01-12',
          valueCents: 6_001,
        },
        {
          fundId: bonds,
          fundName: 'Euro Bonds',
          units: '20.000000',
          price: '2.000000',
          priceOn: '2026-01-13',
          valueCents: 4_000,
        },
      ].sort((a, b) => (a.fundId < b.fundId ? -1 : 1)),
      uninvestedCents: 0,
      switchingCents: 0,
      defaultFund: false,
      needsFund: false,
    });
    const ledger = await s.transactions(member);
    expect(
      ledger.map(({ kind, fundId, on, units, price, amountCents }) => ({
        kind,
        fundId,
        on,
        units,
        price,
        amountCents,
      })),
    ).toEqual([
      {
        kind: 'contribution',
        fundId: bonds,
        on: '2026-01-13',
        units: '20.000000',
        price: '2.000000',
        amountCents: 4_000,
      },
      {
        kind: 'contribution',
        fundId: equity,
        on: '2026-01-12',
        units: '48.608135',
        price: '1.234567',
        amountCents: 6_001,
      },
    ]);
    // On the day before the bonds were priced, the bonds' part was still waiting.
    expect(await s.holdings(member, '2026-01-12')).toMatchObject({
      valueCents: 10_001,
      funds: [expect.objectContaining({ fundId: equity, valueCents: 6_001 })],
      uninvestedCents: 4_000,
    });
  });

  it('invests in the scheme’s default fund without a choice, and says so; without either the money waits, needing a fund', async () => {
    clock.at('2026-02-02');
    const s = await dcScheme(t, [{ name: 'Default Growth' }, { name: 'Cash' }], 2);
    const [growth = '', cash = ''] = s.fundIds;
    const [first = '', second = ''] = s.members.map((member) => member.id);
    await s.contribute(first, { period: '2026-01', amountCents: 25_000 });
    await s.prices(growth, [{ on: '2026-02-02', price: '0.500000' }]);
    await s.prices(cash, [{ on: '2026-02-02', price: '1.000000' }]);

    // No choice and no default fund: nowhere to go.
    expect(await runInvestments(t)).toMatchObject({ invested: 0 });
    expect(await s.holdings(first)).toMatchObject({
      uninvestedCents: 25_000,
      funds: [],
      defaultFund: false,
      needsFund: true,
    });

    const named = await s.staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: growth });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().defaultFundId).toBe(growth);
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });
    expect(await s.holdings(first)).toMatchObject({
      valueCents: 25_000,
      funds: [{ fundId: growth, units: '500.000000', price: '0.500000', valueCents: 25_000 }],
      uninvestedCents: 0,
      defaultFund: true,
      needsFund: false,
    });

    // A member with a choice is not in the default fund.
    await s.choose(second, [{ fundId: cash, percent: 100 }]);
    await s.contribute(second, { period: '2026-01', amountCents: 1_234 });
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });
    expect(await s.holdings(second)).toMatchObject({
      funds: [{ fundId: cash, units: '12.340000', valueCents: 1_234 }],
      defaultFund: false,
      needsFund: false,
    });
  });

  it('invests money received on a past day at the first price on or after that day, and a correction the day it is recorded', async () => {
    clock.at('2026-03-10');
    const s = await dcScheme(t, [{ name: 'Balanced' }]);
    const [balanced = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: balanced, percent: 100 }]);
    await s.prices(balanced, [
      { on: '2026-03-02', price: '1.000000' },
      { on: '2026-03-05', price: '1.100000' },
      { on: '2026-03-10', price: '1.250000' },
    ]);
    // The choice came today: money received before it goes nowhere, and waits.
    const early = await s.contribute(member, {
      period: '2026-02',
      amountCents: 11_000,
      receivedOn: '2026-03-03',
    });
    expect(early.receivedOn).toBe('2026-03-03');
    expect(await runInvestments(t)).toMatchObject({ invested: 0, waiting: 1 });
    const named = await s.staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: balanced });
    expect(named.statusCode, named.body).toBe(200);
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });
    // Received on 3 March: bought at the price of 5 March, 11,000 × 10^10 / 1,100,000.
    expect((await s.transactions(member))[0]).toMatchObject({
      on: '2026-03-05',
      units: '100.000000',
      amountCents: 11_000,
    });

    // A correction of −€5.00 recorded today sells at today's price: 500 / 1.25 = 4 units.
    const corrected = await s.staff.post(`/api/contributions/${early.id}/adjustments`, {
      deltaCents: -500,
      reason: 'Overpaid in February',
    });
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });
    expect((await s.transactions(member))[0]).toMatchObject({
      kind: 'contribution',
      on: '2026-03-10',
      units: '-4.000000',
      price: '1.250000',
      amountCents: -500,
    });
    expect(await s.holdings(member)).toMatchObject({
      funds: [{ units: '96.000000', valueCents: 12_000 }],
      uninvestedCents: 0,
    });

    // A page at a time, newest day first: each movement once, and no page after the last.
    const first = await s.staff.get(`/api/members/${member}/transactions?limit=1`);
    expect(first.json().items).toMatchObject([{ on: '2026-03-10', amountCents: -500 }]);
    const cursor = first.json().nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const second = await s.staff.get(
      `/api/members/${member}/transactions?limit=1&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(second.json().items).toMatchObject([{ on: '2026-03-05', amountCents: 11_000 }]);
    expect(second.json().nextCursor).toBeNull();
  });
});
