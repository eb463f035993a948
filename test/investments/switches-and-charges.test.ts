import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * Switches and the monthly charge (docs/decisions/0127-dc-money.md), with figures worked by hand.
 * A switch sells each fund held at its first price on or after the day it was asked for, then
 * buys each target at its first price after the last sale; the charge cancels units × basis
 * points / 120,000 of each fund held at a month's end, valued at the latest price on or before it.
 */
const clock = testClock('2025-01-15');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

describe('the monthly charge', () => {
  it('at 150 basis points cancels a twelfth of 1.5% of the units held each month, the months an outage missed caught up at once, and 12 months sum', async () => {
    clock.at('2025-01-15');
    const s = await dcScheme(t, [{ name: 'Managed', annualChargeBasisPoints: 150 }]);
    const [managed = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: managed, percent: 100 }]);
    await s.contribute(member, { period: '2025-01', amountCents: 120_000 });
    await s.prices(managed, [{ on: '2025-01-15', price: '1.500000' }]);
    expect(await runInvestments(t)).toMatchObject({ invested: 1, charged: 0 });
    clock.at('2025-06-30');
    await s.prices(managed, [{ on: '2025-06-30', price: '1.600000' }]);

    // No run from January to the new year: the first run takes the twelve charges.
    clock.at('2026-01-05');
    expect(await runInvestments(t)).toMatchObject({ charged: 12 });
    expect(await runInvestments(t)).toMatchObject({ charged: 0 });
    const charges = (await s.transactions(member)).filter((row) => row.kind === 'charge');
    // 800 units; each month cancels round(held × 150 / 120,000) millionths, at the latest price
    // on or before the month's last day: 1.50 to May, 1.60 from June.
    expect(
      charges.map(({ on, units, price, amountCents }) => [on, units, price, amountCents]),
    ).toEqual([
      ['2025-12-31', '-0.986336', '1.600000', -158],
      ['2025-11-30', '-0.987570', '1.600000', -158],
      ['2025-10-31', '-0.988806', '1.600000', -158],
      ['2025-09-30', '-0.990044', '1.600000', -158],
      ['2025-08-31', '-0.991283', '1.600000', -159],
      ['2025-07-31', '-0.992523', '1.600000', -159],
      ['2025-06-30', '-0.993766', '1.600000', -159],
      ['2025-05-31', '-0.995009', '1.500000', -149],
      ['2025-04-30', '-0.996255', '1.500000', -149],
      ['2025-03-31', '-0.997502', '1.500000', -150],
      ['2025-02-28', '-0.998750', '1.500000', -150],
      ['2025-01-31', '-1.000000', '1.500000', -150],
    ]);
    // The year's costs are a sum: €18.57, 11.917844 units.
    expect(charges.reduce((total, row) => total + row.amountCents, 0)).toBe(-1_857);
    expect(await s.holdings(member)).toMatchObject({
      funds: [{ units: '788.082156', price: '1.600000', valueCents: 126_093 }],
      valueCents: 126_093,
    });
    // The charge of a month is taken once the month has ended, not before.
    clock.at('2026-01-31');
    expect(await runInvestments(t)).toMatchObject({ charged: 0 });
    clock.at('2026-02-01');
    expect(await runInvestments(t)).toMatchObject({ charged: 1 });
  });
});

describe('switches', () => {
  it('sells at one price and buys at the next, shows the money between as switching, and refuses a second while one is pending', async () => {
    clock.at('2026-04-01');
    const s = await dcScheme(t, [{ name: 'Equity' }, { name: 'Bonds' }, { name: 'Cash' }]);
    const [equity = '', bonds = '', cash = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    const self = s.as(s.self);
    await s.choose(member, [
      { fundId: equity, percent: 50 },
      { fundId: bonds, percent: 50 },
    ]);
    await s.contribute(member, { period: '2026-03', amountCents: 20_000 });
    await s.prices(equity, [{ on: '2026-04-01', price: '2.000000' }]);
    await s.prices(bonds, [{ on: '2026-04-01', price: '4.000000' }]);
    expect(await runInvestments(t)).toMatchObject({ invested: 2 });

    clock.at('2026-04-02');
    // The member asks for themselves: 70% cash, 30% back into equity.
    const asked = await self.post(`/api/members/${member}/switches`, {
      to: [
        { fundId: cash, percent: 70 },
        { fundId: equity, percent: 30 },
      ],
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const switched = asked.json();
    expect(switched).toEqual({
      id: expect.any(String),
      memberId: member,
      status: 'pending',
      requestedOn: '2026-04-02',
      completedOn: null,
      to: [
        { fundId: cash, fundName: 'Cash', percent: 70 },
        { fundId: equity, fundName: 'Equity', percent: 30 },
      ],
    });
    const again = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: bonds, percent: 100 }],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already waiting/);

    // Nothing to sell at yet: the prices of 1 April are before the day asked.
    expect(await runInvestments(t)).toMatchObject({ switched: 0, waiting: 1 });

    clock.at('2026-04-03');
    await s.prices(equity, [{ on: '2026-04-03', price: '2.100000' }]);
    await s.prices(bonds, [{ on: '2026-04-03', price: '3.900000' }]);
    await s.prices(cash, [{ on: '2026-04-03', price: '1.000000' }]);
    // Sold: 50 units × 2.10 = €105.00 and 25 × 3.90 = €97.50. Cash has no price after the sale.
    expect(await runInvestments(t)).toMatchObject({ switched: 2, waiting: 1 });
    expect(await s.holdings(member)).toMatchObject({
      valueCents: 20_250,
      funds: [],
      uninvestedCents: 0,
      switchingCents: 20_250,
    });

    clock.at('2026-04-06');
    await s.prices(cash, [{ on: '2026-04-06', price: '1.012345' }]);
    await s.prices(equity, [{ on: '2026-04-06', price: '2.200000' }]);
    // Bought: €141.75 of cash at 1.012345 and €60.75 of equity at 2.20.
    expect(await runInvestments(t)).toMatchObject({ switched: 2, waiting: 0 });
    const after = await s.holdings(member);
    expect(after).toMatchObject({ valueCents: 20_250, switchingCents: 0, uninvestedCents: 0 });
    expect(
      Object.fromEntries(
        after.funds.map((fund: { fundId: string; units: string; valueCents: number }) => [
          fund.fundId,
          [fund.units, fund.valueCents],
        ]),
      ),
    ).toEqual({ [cash]: ['140.021435', 14_175], [equity]: ['27.613636', 6_075] });

    const ledger = await s.transactions(member);
    expect(
      ledger
        .filter((row) => row.kind !== 'contribution')
        .map(({ kind, fundName, on, units, price, amountCents }) => [
          kind,
          fundName,
          on,
          units,
          price,
          amountCents,
        ])
        .sort(),
    ).toEqual(
      [
        ['switch_out', 'Equity', '2026-04-03', '-50.000000', '2.100000', -10_500],
        ['switch_out', 'Bonds', '2026-04-03', '-25.000000', '3.900000', -9_750],
        ['switch_in', 'Cash', '2026-04-06', '140.021435', '1.012345', 14_175],
        ['switch_in', 'Equity', '2026-04-06', '27.613636', '2.200000', 6_075],
      ].sort(),
    );
    const list = await self.get(`/api/members/${member}/switches`);
    expect(list.json().items).toEqual([
      expect.objectContaining({ id: switched.id, status: 'completed', completedOn: '2026-04-06' }),
    ]);

    // Holdings on past days, as they stood then.
    expect(await s.holdings(member, '2026-04-02')).toMatchObject({
      valueCents: 20_000,
      switchingCents: 0,
    });
    expect(await s.holdings(member, '2026-04-04')).toMatchObject({
      valueCents: 20_250,
      funds: [],
      switchingCents: 20_250,
    });

    // Done: another switch may be asked for.
    const next = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: bonds, percent: 100 }],
    });
    expect(next.statusCode, next.body).toBe(202);
  });
});

describe('the charge of a month a member switched in', () => {
  it('is taken at the month’s end on the fund switched into, at its charge, and not on the fund left', async () => {
    clock.at('2026-07-01');
    const s = await dcScheme(t, [
      { name: 'Equity', annualChargeBasisPoints: 120 },
      { name: 'Cautious', annualChargeBasisPoints: 60 },
    ]);
    const [equity = '', cautious = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: equity, percent: 100 }]);
    await s.contribute(member, { period: '2026-06', amountCents: 100_000 });
    await s.prices(equity, [{ on: '2026-07-01', price: '1.000000' }]);
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });

    // On 10 July everything moves to Cautious: 1,000 Equity units sold at €1.00 that day, €1,000
    // buying 500 Cautious units at €2.00 on the 11th.
    clock.at('2026-07-10');
    const asked = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: cautious, percent: 100 }],
    });
    expect(asked.statusCode, asked.body).toBe(202);
    await s.prices(equity, [{ on: '2026-07-10', price: '1.000000' }]);
    clock.at('2026-07-11');
    await s.prices(cautious, [{ on: '2026-07-11', price: '2.000000' }]);
    expect(await runInvestments(t)).toMatchObject({ switched: 2 });

    // July's charge, after the month: 500 units × 60 / 120,000 = 0.25 units, worth €0.50 at the
    // latest price on or before 31 July; Equity, held for nine days, is left at no units and no charge.
    clock.at('2026-07-31');
    await s.prices(cautious, [{ on: '2026-07-31', price: '2.000000' }]);
    clock.at('2026-08-01');
    // (Other suites' members in this database are charged in the same run.)
    await runInvestments(t);
    const charges = (await s.transactions(member)).filter((row) => row.kind === 'charge');
    expect(
      charges.map(({ fundId, on, units, price, amountCents }) => ({
        fundId,
        on,
        units,
        price,
        amountCents,
      })),
    ).toEqual([
      {
        fundId: cautious,
        on: '2026-07-31',
        units: '-0.250000',
        price: '2.000000',
        amountCents: -50,
      },
    ]);
    expect(await s.holdings(member)).toMatchObject({
      valueCents: 99_950,
      funds: [expect.objectContaining({ fundId: cautious, units: '499.750000' })],
    });
  });
});
