import { describe, expect, it } from 'vitest';
import { annualChargeWords } from './dc-money-rules.js';
import { readSchemePriceFile } from './fund-price-file.js';

const funds = [
  { id: 'f1', name: 'Irish Equity Fund', isin: 'IE00B4L5Y983' },
  { id: 'f2', name: 'Euro Cash Fund', isin: null },
];

describe('a prices file read against a scheme’s funds', () => {
  it('finds each fund by its name whatever its case, or by its ISIN', () => {
    const reading = readSchemePriceFile(
      'Fund,Date,Price\nirish equity fund,02/03/2026,1.5\nIE00B4L5Y983,03/03/2026,1.6\nEuro Cash Fund,03/03/2026,1\n',
      funds,
      '2026-03-03',
    );
    expect(reading).toEqual({
      ok: true,
      prices: [
        { fundId: 'f1', on: '2026-03-02', micro: 1_500_000n },
        { fundId: 'f1', on: '2026-03-03', micro: 1_600_000n },
        { fundId: 'f2', on: '2026-03-03', micro: 1_000_000n },
      ],
    });
  });

  it('lists every problem by its line at once: no such fund, a day to come, a fund named twice for a day', () => {
    const reading = readSchemePriceFile(
      'Fund,Date,Price\nGold Fund,02/03/2026,1.5\nEuro Cash Fund,04/03/2026,1\nIrish Equity Fund,03/03/2026,1.6\nIE00B4L5Y983,03/03/2026,1.6\n',
      funds,
      '2026-03-03',
    );
    expect(reading).toEqual({
      ok: false,
      problems: [
        { line: 2, message: 'Fund: no fund of this scheme has this name or ISIN' },
        { line: 3, message: 'Date: the day is after today: give prices for days up to today' },
        {
          line: 5,
          message: 'The same fund and date as line 4: give each fund one price a day',
        },
      ],
    });
  });
});

describe('an annual charge in words', () => {
  it('reads basis points as a percentage a year to two places, and none as none', () => {
    expect(annualChargeWords(75)).toBe('0.75% a year');
    expect(annualChargeWords(150)).toBe('1.50% a year');
    expect(annualChargeWords(5)).toBe('0.05% a year');
    expect(annualChargeWords(0)).toBe('None');
  });
});
