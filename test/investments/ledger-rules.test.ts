import { describe, expect, it } from 'vitest';
import {
  type LedgerEntry,
  lastEndedMonth,
  nextMonth,
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
