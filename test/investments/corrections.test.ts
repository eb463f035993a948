import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * A negative correction of a contribution takes money back out of the member's funds
 * (docs/decisions/0127-dc-money.md, "Negative corrections"): it sells what the member holds on
 * its day, pro rata to the value of each fund at the price it sells at, whatever the fund choice
 * says, and never more units than are held; what the funds cannot cover stays owed, as money not
 * invested. The figures are worked by hand: units = cents × 10^10 / price in millionths, rounded
 * half away from zero to 6 places.
 */
const clock = testClock('2026-05-04');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

async function correct(s: Awaited<ReturnType<typeof dcScheme>>, id: string, deltaCents: number) {
  const corrected = await s.staff.post(`/api/contributions/${id}/adjustments`, {
    deltaCents,
    reason: 'Overpaid',
  });
  expect(corrected.statusCode, corrected.body).toBe(201);
}

describe('a negative correction', () => {
  it('sells from the fund a member switched everything into, and leaves the fund they no longer hold at nothing', async () => {
    clock.at('2026-05-04');
    const s = await dcScheme(t, [{ name: 'Equity' }, { name: 'Cash' }]);
    const [equity = '', cash = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: equity, percent: 100 }]);
    const paid = await s.contribute(member, { period: '2026-04', amountCents: 10_000 });
    await s.prices(equity, [{ on: '2026-05-04', price: '1.000000' }]);
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });

    // Everything switched to Cash: 100 units of Equity sold at 1.10, €110.00 buys 55 at 2.00.
    clock.at('2026-05-05');
    const asked = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: cash, percent: 100 }],
    });
    expect(asked.statusCode, asked.body).toBe(202);
    await s.prices(equity, [{ on: '2026-05-05', price: '1.100000' }]);
    clock.at('2026-05-06');
    await s.prices(cash, [{ on: '2026-05-06', price: '2.000000' }]);
    expect(await runInvestments(t)).toMatchObject({ switched: 2, waiting: 0 });

    // The choice for new money is still Equity, which the member no longer holds: −€20.00
    // sells 20 / 2.50 = 8 units of Cash, and Equity stays at nothing (selling it, at 1.20,
    // would have left it at −16.666667 units).
    clock.at('2026-05-07');
    await s.prices(equity, [{ on: '2026-05-07', price: '1.200000' }]);
    await s.prices(cash, [{ on: '2026-05-07', price: '2.500000' }]);
    await correct(s, paid.id, -2_000);
    expect(await runInvestments(t)).toMatchObject({ invested: 1, waiting: 0 });
    expect((await s.transactions(member))[0]).toMatchObject({
      kind: 'contribution',
      fundId: cash,
      on: '2026-05-07',
      units: '-8.000000',
      price: '2.500000',
      amountCents: -2_000,
    });
    expect(await s.holdings(member)).toEqual({
      on: '2026-05-07',
      valueCents: 11_750,
      funds: [
        {
          fundId: cash,
          fundName: 'Cash',
          units: '47.000000',
          price: '2.500000',
          priceOn: '2026-05-07',
          valueCents: 11_750,
        },
      ],
      uninvestedCents: 0,
      switchingCents: 0,
      defaultFund: false,
      needsFund: false,
    });
    const assets = await s.staff.get(`/api/schemes/${s.schemeId}/fund-assets`);
    expect(assets.json().funds.map((fund: { fundId: string }) => fund.fundId)).toEqual([cash]);
  });

  it('sells pro rata to the value held in each fund, and, where the funds are worth less, all of them, the rest owed', async () => {
    clock.at('2026-06-01');
    const s = await dcScheme(t, [{ name: 'Growth' }, { name: 'Bonds' }]);
    const [growth = '', bonds = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [
      { fundId: growth, percent: 60 },
      { fundId: bonds, percent: 40 },
    ]);
    const paid = await s.contribute(member, { period: '2026-05', amountCents: 20_000 });
    await s.prices(growth, [{ on: '2026-06-01', price: '1.200000' }]);
    await s.prices(bonds, [{ on: '2026-06-01', price: '2.000000' }]);
    // €120.00 buys 100 units of Growth at 1.20, €80.00 40 of Bonds at 2.00.
    expect(await runInvestments(t)).toMatchObject({ invested: 2 });

    // A week on Growth's 100 units are worth €150.00 and Bonds' 40 €100.00. −€50.01 is taken
    // 150:100, 3,000.6 and 2,000.4 cents, the odd cent to the larger remainder: €30.01 sells
    // 20.006667 units of Growth and €20.00 8 of Bonds.
    clock.at('2026-06-08');
    await s.prices(growth, [{ on: '2026-06-08', price: '1.500000' }]);
    await s.prices(bonds, [{ on: '2026-06-08', price: '2.500000' }]);
    await correct(s, paid.id, -5_001);
    expect(await runInvestments(t)).toMatchObject({ invested: 2, waiting: 0 });
    const sold = (await s.transactions(member)).filter((row) => row.on === '2026-06-08');
    expect(
      sold
        .map(({ fundName, units, price, amountCents }) => [fundName, units, price, amountCents])
        .sort(),
    ).toEqual([
      ['Bonds', '-8.000000', '2.500000', -2_000],
      ['Growth', '-20.006667', '1.500000', -3_001],
    ]);
    // 79.993333 × 1.50 = €119.99 and 32 × 2.50 = €80.00.
    expect(await s.holdings(member)).toMatchObject({
      valueCents: 19_999,
      uninvestedCents: 0,
      switchingCents: 0,
    });

    // The funds fall to 0.01: what is held is worth 80 cents and 32 cents, less than the
    // −€100.00 taken back. Every unit is sold, for €1.12; the €98.88 they could not cover is
    // owed, as money not invested, and the member's pension is worth −€98.88.
    clock.at('2026-06-15');
    await s.prices(growth, [{ on: '2026-06-15', price: '0.010000' }]);
    await s.prices(bonds, [{ on: '2026-06-15', price: '0.010000' }]);
    await correct(s, paid.id, -10_000);
    expect(await runInvestments(t)).toMatchObject({ invested: 2, waiting: 0 });
    expect(
      (await s.transactions(member))
        .filter((row) => row.on === '2026-06-15')
        .map(({ fundName, units, amountCents }) => [fundName, units, amountCents])
        .sort(),
    ).toEqual([
      ['Bonds', '-32.000000', -32],
      ['Growth', '-79.993333', -80],
    ]);
    expect(await s.holdings(member)).toMatchObject({
      valueCents: -9_888,
      funds: [],
      uninvestedCents: -9_888,
      switchingCents: 0,
    });
    // Nothing more is sold on the next run: there is nothing left to sell.
    expect(await runInvestments(t)).toMatchObject({ invested: 0, waiting: 0 });
  });
});
