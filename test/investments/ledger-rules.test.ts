import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sellByValue, valueCents } from '../../src/contracts/dc-money-rules.js';
import {
  type LedgerEntry,
  lastEndedMonth,
  nextMonth,
  type Price,
  placementOf,
  priceBook,
  settleMember,
} from '../../src/server/modules/investments/ledger.rules.js';

/**
 * What is due on one member's ledger, from values alone (ledger.rules.ts;
 * docs/decisions/0127-dc-money.md): the order of a day's movements, switches of nothing, and the
 * lookups the settlement leans on.
 */
const price = (fund: string, on: string, micro: bigint) => ({ id: `${fund}@${on}`, on, micro });
const noCharges = { defaultFundId: null, charges: new Map<string, number>() };
const held = (fundId: string, dealtOn: string, unitsMicro: bigint): LedgerEntry => ({
  fundId,
  kind: 'contribution',
  source: `contribution:${fundId}${dealtOn}`,
  dealtOn,
  unitsMicro,
  amountCents: Number(unitsMicro / 10_000n),
});

describe('the ledger’s rules', () => {
  it('finds a fund’s first price on or after a day, and after it', () => {
    const book = priceBook(
      new Map([
        [
          'f',
          [
            price('f', '2026-01-09', 3n),
            price('f', '2026-01-02', 1n),
            price('f', '2026-01-05', 2n),
          ],
        ],
      ]),
    );
    expect(book.onOrAfter('f', '2026-01-05')?.micro).toBe(2n);
    expect(book.after('f', '2026-01-05')?.micro).toBe(3n);
    expect(book.onOrAfter('f', '2026-01-01')?.micro).toBe(1n);
    expect(book.after('f', '2026-01-09')).toBeUndefined();
    expect(book.onOrAfter('g', '2026-01-01')).toBeUndefined();
  });

  it('places money by the choice in force on the day received, the latest made on a day, else the default fund', () => {
    const choices = [
      { effectiveFrom: '2026-01-01', madeAt: 1, lines: [{ fundId: 'a', percent: 100 }] },
      { effectiveFrom: '2026-02-01', madeAt: 3, lines: [{ fundId: 'b', percent: 100 }] },
      { effectiveFrom: '2026-02-01', madeAt: 2, lines: [{ fundId: 'c', percent: 100 }] },
    ];
    expect(placementOf('2026-01-31', choices, 'd')?.lines[0]?.fundId).toBe('a');
    expect(placementOf('2026-02-01', choices, 'd')?.lines[0]?.fundId).toBe('b');
    expect(placementOf('2025-12-31', choices, 'd')).toEqual({
      lines: [{ fundId: 'd', percent: 100 }],
      byDefault: true,
    });
    expect(placementOf('2025-12-31', choices, null)).toBeNull();
  });

  it('counts months across the year’s end', () => {
    expect(nextMonth('2025-12')).toBe('2026-01');
    expect(lastEndedMonth('2026-01-01')).toBe('2025-12');
    expect(lastEndedMonth('2026-03-31')).toBe('2026-02');
  });

  it('completes a switch of a member who holds nothing on the day it was asked for, moving nothing', () => {
    const settled = settleMember(
      {
        ledger: [],
        money: [],
        choices: [],
        switches: [
          { id: 's', requestedOn: '2026-05-05', madeAt: 0, to: [{ fundId: 'b', percent: 100 }] },
        ],
      },
      noCharges,
      priceBook(new Map()),
      '2026-05-06',
    );
    expect(settled).toEqual({
      entries: [],
      completed: [{ id: 's', on: '2026-05-05' }],
      paid: [],
      waiting: 0,
    });
  });

  it('sells on a month’s last day before that day’s charge, which then finds nothing left to charge', () => {
    const settled = settleMember(
      {
        ledger: [held('a', '2026-01-15', 10_000_000n)],
        money: [],
        choices: [],
        switches: [
          { id: 's', requestedOn: '2026-01-31', madeAt: 0, to: [{ fundId: 'b', percent: 100 }] },
        ],
      },
      { defaultFundId: null, charges: new Map([['a', 120]]) },
      priceBook(
        new Map([
          ['a', [price('a', '2026-01-31', 2_000_000n)]],
          ['b', [price('b', '2026-02-02', 1_000_000n)]],
        ]),
      ),
      '2026-02-03',
    );
    expect(
      settled.entries.map(({ kind, fundId, dealtOn, unitsMicro, amountCents }) => [
        kind,
        fundId,
        dealtOn,
        unitsMicro,
        amountCents,
      ]),
    ).toEqual([
      ['switch_out', 'a', '2026-01-31', -10_000_000n, -2_000],
      ['switch_in', 'b', '2026-02-02', 20_000_000n, 2_000],
    ]);
    expect(settled.completed).toEqual([{ id: 's', on: '2026-02-02' }]);
  });

  it('takes the charges while a switch waits for its new fund’s price, and says the switch waits', () => {
    const settled = settleMember(
      {
        ledger: [held('a', '2026-01-15', 12_000_000n)],
        money: [],
        choices: [],
        switches: [
          { id: 's', requestedOn: '2026-01-20', madeAt: 0, to: [{ fundId: 'b', percent: 100 }] },
        ],
      },
      {
        defaultFundId: null,
        charges: new Map([
          ['a', 100],
          ['b', 100],
        ]),
      },
      priceBook(new Map([['a', [price('a', '2026-03-02', 1_000_000n)]]])),
      '2026-04-01',
    );
    // Sold on 2 March, after January's and February's charges: 12 units less 0.01 and
    // 0.009992 (11.99 × 100 / 120,000 = 0.00999166…).
    expect(
      settled.entries.map(({ kind, dealtOn, unitsMicro }) => [kind, dealtOn, unitsMicro]),
    ).toEqual([
      ['charge', '2026-01-31', -10_000n],
      ['charge', '2026-02-28', -9_992n],
      ['switch_out', '2026-03-02', -11_980_008n],
    ]);
    expect(settled.completed).toEqual([]);
    expect(settled.waiting).toBe(1);
  });
});

/**
 * A negative correction (docs/decisions/0127-dc-money.md, "Negative corrections"): it sells what
 * the member holds, pro rata to the value of each fund at the price it sells at, whatever the
 * fund choice says, and never more units than are held; what the funds cannot cover stays owed,
 * as money not invested. The figures are worked by hand: units = cents × 10^10 / price in
 * millionths, rounded half away from zero to 6 places.
 */
describe('selling for a negative correction', () => {
  it('takes €50.01 from €150 and €100 held as €30.01 and €20.00, the odd cent to the larger remainder', () => {
    // 5,001 × 150 / 250 = 3,000.6 and 5,001 × 100 / 250 = 2,000.4: the cent left goes to the first.
    // 3,001 × 10^10 / 1,500,000 = 20,006,666.7 millionths; 2,000 × 10^10 / 2,500,000 = 8,000,000.
    expect(
      sellByValue(5_001, [
        { fundId: 'a', unitsMicro: 100_000_000n, priceMicro: 1_500_000n },
        { fundId: 'b', unitsMicro: 40_000_000n, priceMicro: 2_500_000n },
      ]).map(({ fundId, unitsMicro, amountCents }) => [fundId, unitsMicro, amountCents]),
    ).toEqual([
      ['a', -20_006_667n, -3_001],
      ['b', -8_000_000n, -2_000],
    ]);
  });

  it('sells every unit, and no more, when what is held is worth no more than the sum', () => {
    const held = [
      { fundId: 'a', unitsMicro: 100_000_000n, priceMicro: 1_500_000n },
      { fundId: 'b', unitsMicro: 40_000_000n, priceMicro: 2_500_000n },
    ];
    const everything = [
      ['a', -100_000_000n, -15_000],
      ['b', -40_000_000n, -10_000],
    ];
    const sold = (cents: number) =>
      sellByValue(cents, held).map(({ fundId, unitsMicro, amountCents }) => [
        fundId,
        unitsMicro,
        amountCents,
      ]);
    expect(sold(30_000)).toEqual(everything);
    expect(sold(25_000)).toEqual(everything);
    // A cent less than everything: 14,999.4 and 9,999.6 cents, the odd cent to B, which sells
    // all it has; A gives €149.99, 99.993333 units at 1.50, and keeps 0.006667.
    expect(sold(24_999)).toEqual([
      ['a', -99_993_333n, -14_999],
      ['b', -40_000_000n, -10_000],
    ]);
    expect(sellByValue(0, held)).toEqual([]);
    expect(sellByValue(100, [])).toEqual([]);
  });

  it('sells from the fund a member switched into, never the fund of the choice they no longer hold', () => {
    // €100 bought 100 units of A at 1.00; a switch sold them at 1.10 for €110 and bought 55 units
    // of B at 2.00. The choice for new money is still A. A correction of −€20 on 7 May sells
    // 20 / 2.50 = 8 units of B; A, at 0 units, is left alone (the rule before sold 16.666667
    // units of A at 1.20, leaving A at −16.666667).
    const settled = settleMember(
      {
        ledger: [
          {
            fundId: 'a',
            kind: 'contribution',
            source: 'contribution:c',
            dealtOn: '2026-05-04',
            unitsMicro: 100_000_000n,
            amountCents: 10_000,
          },
          {
            fundId: 'a',
            kind: 'switch_out',
            source: 'switch:s',
            dealtOn: '2026-05-05',
            unitsMicro: -100_000_000n,
            amountCents: -11_000,
          },
          {
            fundId: 'b',
            kind: 'switch_in',
            source: 'switch:s',
            dealtOn: '2026-05-06',
            unitsMicro: 55_000_000n,
            amountCents: 11_000,
          },
        ],
        money: [
          { source: 'contribution:c', receivedOn: '2026-05-04', amountCents: 10_000 },
          { source: 'adjustment:j', receivedOn: '2026-05-07', amountCents: -2_000 },
        ],
        choices: [
          { effectiveFrom: '2026-05-01', madeAt: 0, lines: [{ fundId: 'a', percent: 100 }] },
        ],
        switches: [],
      },
      noCharges,
      priceBook(
        new Map([
          ['a', [price('a', '2026-05-07', 1_200_000n)]],
          ['b', [price('b', '2026-05-07', 2_500_000n)]],
        ]),
      ),
      '2026-05-08',
    );
    expect(
      settled.entries.map(({ fundId, kind, dealtOn, unitsMicro, amountCents }) => [
        fundId,
        kind,
        dealtOn,
        unitsMicro,
        amountCents,
      ]),
    ).toEqual([['b', 'contribution', '2026-05-07', -8_000_000n, -2_000]]);
    expect(settled.waiting).toBe(0);
  });

  it('waits for the money received by its day to be invested, then sells from it', () => {
    const book = {
      ledger: [],
      money: [
        { source: 'contribution:c', receivedOn: '2026-05-04', amountCents: 10_000 },
        { source: 'adjustment:j', receivedOn: '2026-05-04', amountCents: -1_000 },
      ],
      choices: [{ effectiveFrom: '2026-05-01', madeAt: 0, lines: [{ fundId: 'a', percent: 100 }] }],
      switches: [],
    };
    // No price yet: the contribution waits, and the correction with it.
    expect(settleMember(book, noCharges, priceBook(new Map()), '2026-05-05')).toEqual({
      entries: [],
      completed: [],
      paid: [],
      waiting: 2,
    });
    // Priced at 2.00 on 5 May: €100 buys 50 units, and −€10 sells 5 of them.
    const settled = settleMember(
      book,
      noCharges,
      priceBook(new Map([['a', [price('a', '2026-05-05', 2_000_000n)]]])),
      '2026-05-06',
    );
    expect(
      settled.entries.map(({ source, dealtOn, unitsMicro, amountCents }) => [
        source,
        dealtOn,
        unitsMicro,
        amountCents,
      ]),
    ).toEqual([
      ['contribution:c', '2026-05-05', 50_000_000n, 10_000],
      ['adjustment:j', '2026-05-05', -5_000_000n, -1_000],
    ]);
    expect(settled.waiting).toBe(0);
  });

  it('sells everything held when it is worth less than the correction, the rest owed, and sells nothing more on the next run', () => {
    const book = {
      ledger: [
        {
          fundId: 'a',
          kind: 'contribution' as const,
          source: 'contribution:c',
          dealtOn: '2026-05-04',
          unitsMicro: 100_000_000n,
          amountCents: 10_000,
        },
      ],
      money: [
        { source: 'contribution:c', receivedOn: '2026-05-04', amountCents: 10_000 },
        { source: 'adjustment:j', receivedOn: '2026-05-11', amountCents: -3_000 },
      ],
      choices: [{ effectiveFrom: '2026-05-01', madeAt: 0, lines: [{ fundId: 'a', percent: 100 }] }],
      switches: [],
    };
    const prices = priceBook(new Map([['a', [price('a', '2026-05-11', 100_000n)]]]));
    // 100 units at 0.10 are worth €10.00: all sold, €20.00 still owed.
    const settled = settleMember(book, noCharges, prices, '2026-05-12');
    expect(
      settled.entries.map(({ dealtOn, unitsMicro, amountCents }) => [
        dealtOn,
        unitsMicro,
        amountCents,
      ]),
    ).toEqual([['2026-05-11', -100_000_000n, -1_000]]);
    expect(settled.waiting).toBe(0);
    const again = settleMember(
      { ...book, ledger: [...book.ledger, ...settled.entries] },
      noCharges,
      prices,
      '2026-05-13',
    );
    expect(again).toEqual({ entries: [], completed: [], paid: [], waiting: 0 });
  });

  it('sells after a switch asked before it is done, out of the funds the switch bought', () => {
    // A switch asked on 5 May sells A on its first price, 8 May, and buys B on 9 May; the
    // correction of 6 May comes after it: 20 units of B at 2.00 on 9 May are worth €40.00, and
    // −€10.00 sells 5 of them, none of A.
    const settled = settleMember(
      {
        ledger: [held('a', '2026-05-04', 40_000_000n)],
        money: [{ source: 'adjustment:j', receivedOn: '2026-05-06', amountCents: -1_000 }],
        choices: [],
        switches: [
          { id: 's', requestedOn: '2026-05-05', madeAt: 0, to: [{ fundId: 'b', percent: 100 }] },
        ],
      },
      noCharges,
      priceBook(
        new Map([
          ['a', [price('a', '2026-05-08', 1_000_000n)]],
          ['b', [price('b', '2026-05-07', 1_900_000n), price('b', '2026-05-09', 2_000_000n)]],
        ]),
      ),
      '2026-05-10',
    );
    expect(
      settled.entries.map(({ fundId, kind, dealtOn, unitsMicro, amountCents }) => [
        fundId,
        kind,
        dealtOn,
        unitsMicro,
        amountCents,
      ]),
    ).toEqual([
      ['a', 'switch_out', '2026-05-08', -40_000_000n, -4_000],
      ['b', 'switch_in', '2026-05-09', 20_000_000n, 4_000],
      ['b', 'contribution', '2026-05-09', -5_000_000n, -1_000],
    ]);
  });

  it('has a sale dated before charges already taken sell only what those charges left', () => {
    // 12 units held; January's and February's charges were taken (0.01 and 0.009992 units)
    // before the price of 21 January came in late: a switch asked on 20 January sells 11.980008
    // units on 21 January, so the fund is at 0 after February's charge, not below it.
    const charge = (dealtOn: string, unitsMicro: bigint): LedgerEntry => ({
      fundId: 'a',
      kind: 'charge',
      source: `charge:${dealtOn.slice(0, 7)}`,
      dealtOn,
      unitsMicro,
      amountCents: 0,
    });
    const settled = settleMember(
      {
        ledger: [
          held('a', '2026-01-15', 12_000_000n),
          charge('2026-01-31', -10_000n),
          charge('2026-02-28', -9_992n),
        ],
        money: [],
        choices: [],
        switches: [
          { id: 's', requestedOn: '2026-01-20', madeAt: 0, to: [{ fundId: 'b', percent: 100 }] },
        ],
      },
      { defaultFundId: null, charges: new Map([['a', 100]]) },
      priceBook(
        new Map([
          ['a', [price('a', '2026-01-21', 1_000_000n)]],
          ['b', [price('b', '2026-01-22', 1_000_000n)]],
        ]),
      ),
      '2026-03-02',
    );
    expect(
      settled.entries.map(({ fundId, kind, dealtOn, unitsMicro }) => [
        fundId,
        kind,
        dealtOn,
        unitsMicro,
      ]),
    ).toEqual([
      ['a', 'switch_out', '2026-01-21', -11_980_008n],
      ['b', 'switch_in', '2026-01-22', 11_980_000n],
    ]);
  });
});

describe('a switch that has started buying', () => {
  it('sells nothing more, so money dealt into a fund later stays there and the switch buys with exactly what it sold', () => {
    // Asked on 1 January: fund b is sold that day and fund a bought on the 2nd, while b's next
    // price has not come in. A contribution received on the 2nd waited for b's price too; when it
    // comes, the contribution's part in fund a is dealt on the 2nd, the switch's sale day for a.
    const terms = { defaultFundId: 'b', charges: new Map<string, number>() };
    const choice = {
      effectiveFrom: '2026-01-02',
      madeAt: 0,
      lines: [
        { fundId: 'a', percent: 17 },
        { fundId: 'b', percent: 83 },
      ],
    };
    const asked = {
      id: 's',
      requestedOn: '2026-01-01',
      madeAt: 0,
      to: [
        { fundId: 'a', percent: 36 },
        { fundId: 'b', percent: 64 },
      ],
    };
    const early = new Map([
      ['a', [price('a', '2026-01-02', 10_000n)]],
      ['b', [price('b', '2026-01-01', 10_000n)]],
    ]);
    const first = settleMember(
      {
        ledger: [],
        money: [{ source: 'contribution:x', receivedOn: '2026-01-01', amountCents: 85_665 }],
        choices: [choice],
        switches: [asked],
      },
      terms,
      priceBook(early),
      '2026-01-03',
    );
    const second = settleMember(
      {
        ledger: first.entries,
        money: [
          { source: 'contribution:x', receivedOn: '2026-01-01', amountCents: 85_665 },
          { source: 'contribution:y', receivedOn: '2026-01-02', amountCents: 3 },
        ],
        choices: [choice],
        switches: [asked],
      },
      terms,
      priceBook(
        new Map([...early, ['b', [...(early.get('b') ?? []), price('b', '2026-01-03', 10_000n)]]]),
      ),
      '2026-01-04',
    );
    expect(second.completed).toEqual([{ id: 's', on: '2026-01-03' }]);
    const moved = [...first.entries, ...second.entries]
      .filter((entry) => entry.source === 'switch:s')
      .map(({ fundId, kind, amountCents }) => [fundId, kind, amountCents]);
    expect(moved).toEqual([
      ['b', 'switch_out', -85_665],
      ['a', 'switch_in', 30_839],
      ['b', 'switch_in', 54_826],
    ]);
  });
});

describe('a member’s ledger, settled twice as prices come in (property)', () => {
  const FUNDS = ['a', 'b', 'c'] as const;
  const FIRST = Date.UTC(2026, 0, 1);
  const DAYS = 120;
  const dayOf = (index: number) => new Date(FIRST + index * 86_400_000).toISOString().slice(0, 10);
  const fund = fc.constantFrom(...FUNDS);
  /** Whole percents over one to three funds, adding up to 100. */
  const lines = fc
    .tuple(
      fc.shuffledSubarray([...FUNDS], { minLength: 1 }),
      fc.integer({ min: 1, max: 49 }),
      fc.integer({ min: 1, max: 49 }),
    )
    .map(([funds, first, second]) => {
      const percents = [[100], [first, 100 - first], [first, second, 100 - first - second]][
        funds.length - 1
      ] as number[];
      return funds.map((fundId, index) => ({ fundId, percent: percents[index] as number }));
    });
  const scenario = fc.record({
    charges: fc.array(fc.tuple(fund, fc.integer({ min: 0, max: 500 })), { maxLength: 3 }),
    prices: fc.array(
      fc.record({
        fundId: fund,
        day: fc.integer({ min: 0, max: DAYS - 1 }),
        micro: fc.bigInt({ min: 10_000n, max: 100_000_000n }),
        early: fc.boolean(),
      }),
      { maxLength: 40 },
    ),
    money: fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: DAYS - 1 }),
        cents: fc.oneof(
          fc.integer({ min: 1, max: 500_000 }),
          fc.integer({ min: -300_000, max: -1 }),
        ),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    choices: fc.array(fc.record({ day: fc.integer({ min: 0, max: DAYS - 1 }), lines }), {
      maxLength: 2,
    }),
    defaultFund: fc.option(fund, { nil: null }),
    switches: fc.array(fc.record({ day: fc.integer({ min: 0, max: DAYS - 1 }), to: lines }), {
      maxLength: 3,
    }),
    cut: fc.integer({ min: 0, max: DAYS - 1 }),
    payout: fc.option(
      fc.record({
        day: fc.integer({ min: 0, max: DAYS - 1 }),
        kind: fc.constantFrom('refund' as const, 'transfer_out' as const, 'benefit' as const),
      }),
      { nil: null },
    ),
  });

  it('never takes a fund below zero units on any day, nor a correction past its sum; every dealt movement is worth its money, a switch buys with exactly what it sold, and a payout is paid what its sales came to, leaving nothing held', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const byDay = new Map<
          string,
          { id: string; on: string; micro: bigint; fundId: string; early: boolean }
        >();
        for (const p of s.prices)
          byDay.set(`${p.fundId} ${p.day}`, { ...p, id: `${p.fundId}@${p.day}`, on: dayOf(p.day) });
        const book = (keep: (p: { early: boolean; on: string }) => boolean) => {
          const map = new Map<string, Price[]>();
          for (const p of byDay.values()) {
            if (!keep(p)) continue;
            map.set(p.fundId, [
              ...(map.get(p.fundId) ?? []),
              { id: p.id, on: p.on, micro: p.micro },
            ]);
          }
          return priceBook(map);
        };
        const money = s.money.map((sum, index) => ({
          source: `${sum.cents < 0 ? 'adjustment' : 'contribution'}:${index}`,
          receivedOn: dayOf(sum.day),
          amountCents: sum.cents,
        }));
        const choices = s.choices.map((choice, index) => ({
          effectiveFrom: dayOf(choice.day),
          madeAt: index,
          lines: choice.lines,
        }));
        const switches = s.switches.map((asked, index) => ({
          id: String(index),
          requestedOn: dayOf(asked.day),
          madeAt: index,
          to: asked.to,
        }));
        const terms = { defaultFundId: s.defaultFund, charges: new Map(s.charges) };
        const cutDay = dayOf(s.cut);
        const payouts =
          s.payout === null ? [] : [{ id: 'p', kind: s.payout.kind, fromOn: dayOf(s.payout.day) }];

        // First run on the day after the cut: what was recorded by then, with the prices that
        // had come in by then; the second run a month after the last day, with every price.
        const first = settleMember(
          {
            ledger: [],
            money: money.filter((sum) => sum.receivedOn <= cutDay),
            choices: choices.filter((choice) => choice.effectiveFrom <= cutDay),
            switches: switches.filter((open) => open.requestedOn <= cutDay),
            payouts: payouts.filter((payout) => payout.fromOn <= cutDay),
          },
          terms,
          book((p) => p.early && p.on <= cutDay),
          dayOf(s.cut + 1),
        );
        const done = new Set(first.completed.map((switched) => switched.id));
        const second = settleMember(
          {
            ledger: first.entries,
            money,
            choices,
            switches: switches.filter((open) => !done.has(open.id)),
            payouts: first.paid.length > 0 ? [] : payouts,
          },
          terms,
          book(() => true),
          dayOf(DAYS + 30),
        );
        const ledger = [...first.entries, ...second.entries];

        // Each movement once.
        const keys = ledger.map((entry) => `${entry.fundId} ${entry.kind} ${entry.source}`);
        expect(new Set(keys).size).toBe(keys.length);
        // No fund below zero at the end of any day.
        for (const fundId of FUNDS) {
          const days = new Map<string, bigint>();
          for (const entry of ledger.filter((row) => row.fundId === fundId)) {
            days.set(entry.dealtOn, (days.get(entry.dealtOn) ?? 0n) + entry.unitsMicro);
          }
          let balance = 0n;
          for (const on of [...days.keys()].sort()) {
            balance += days.get(on) as bigint;
            expect(balance, `${fundId} on ${on}`).toBeGreaterThanOrEqual(0n);
          }
        }
        // Units × price is the money on every movement dealt at a price.
        for (const entry of ledger) {
          if (entry.kind === 'charge') continue;
          expect(valueCents(entry.unitsMicro, (entry.price as Price).micro)).toBe(
            entry.amountCents,
          );
        }
        // A completed switch buys with exactly what it sold: its movements' money sums to 0.
        for (const switched of [...first.completed, ...second.completed]) {
          const moved = ledger.filter((entry) => entry.source === `switch:${switched.id}`);
          expect(moved.reduce((total, entry) => total + entry.amountCents, 0)).toBe(0);
        }
        // A payout is paid what its sales came to, each a sale; with nothing received or asked
        // for after its day, it leaves every fund at zero.
        const paid = [...first.paid, ...second.paid];
        expect(paid.length).toBeLessThanOrEqual(1);
        if (s.payout !== null && paid[0] !== undefined) {
          const sold = ledger.filter((entry) => entry.source === 'payout:p');
          for (const entry of sold) expect(entry.unitsMicro).toBeLessThan(0n);
          expect(paid[0].cents).toBe(-sold.reduce((total, entry) => total + entry.amountCents, 0));
          const laterThanPayout = (day: number) => day > (s.payout as { day: number }).day;
          if (
            !s.money.some((sum) => laterThanPayout(sum.day)) &&
            !s.switches.some((asked) => laterThanPayout(asked.day))
          ) {
            for (const fundId of FUNDS) {
              const left = ledger
                .filter((entry) => entry.fundId === fundId)
                .reduce((total, entry) => total + entry.unitsMicro, 0n);
              expect(left, fundId).toBe(0n);
            }
          }
        }
        // Money in is invested whole or not yet; money taken back is sold, at most its sum.
        for (const sum of money) {
          const rows = ledger.filter((entry) => entry.source === sum.source);
          const cents = rows.reduce((total, entry) => total + entry.amountCents, 0);
          if (sum.amountCents > 0) expect([0, sum.amountCents]).toContain(cents);
          else {
            expect(cents).toBeGreaterThanOrEqual(sum.amountCents);
            expect(cents).toBeLessThanOrEqual(0);
            for (const entry of rows) expect(entry.unitsMicro).toBeLessThan(0n);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
