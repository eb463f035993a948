import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tooManyCells } from '../../src/contracts/csv.js';
import {
  annualChargeBasisPoints,
  chargeDayOf,
  DC_MONEY_RULES,
  formatDecimal6,
  fundPricesInput,
  MAX_ANNUAL_CHARGE_BASIS_POINTS,
  MAX_PRICE_ROWS,
  MAX_PRICES_A_REQUEST,
  MAX_UNIT_PRICE_MICRO,
  MAX_UNIT_PRICE_TEXT,
  MICRO,
  monthlyChargeUnits,
  readFundPricesCsv,
  readUnitPrice,
  splitByPercent,
  switchInput,
  unitPrice,
  unitsFor,
  valueCents,
} from '../../src/contracts/dc-money-rules.js';
import { fundChoiceInput, MAX_PERCENT_LINES } from '../../src/contracts/funds.js';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { RULE_LABELS } from '../../src/contracts/rule-sources.js';

/**
 * The rules of DC money (docs/decisions/0127-dc-money.md): exact decimals,
 * units that reconcile to the cent, splits that place every cent, the monthly charge, a prices file
 * read all or nothing, and the request bodies of prices and switches.
 */

/** Every sentence a schema gives, by the path of its field. */
function issuesOf(schema: { safeParse(value: unknown): unknown }, value: unknown) {
  const result = schema.safeParse(value) as {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
  return (result.error?.issues ?? []).map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
}

const TEN_TO_THE_TEN = 10n ** 10n;

describe('a unit price, read as exact millionths', () => {
  it.each([
    ['1', 1_000_000n],
    ['1.2345', 1_234_500n],
    ['0.000001', 1n],
    ['  12.5  ', 12_500_000n],
    ['0012.5', 12_500_000n],
    ['9999.999999', 9_999_999_999n],
    ['100.000000', 100_000_000n],
  ])('reads %j', (text, micro) => {
    expect(readUnitPrice(text)).toEqual({ ok: true, micro });
  });

  it.each([
    '',
    ' ',
    '10000',
    '12345.6',
    '1,234.5',
    '1,5',
    '1.2345678',
    '1e3',
    '0x10',
    '-1',
    '+1',
    '−1',
    '€1.00',
    '.5',
    '5.',
    '1 000',
    'NaN',
    'Infinity',
  ])('refuses %j in plain English, without repeating it', (text) => {
    expect(readUnitPrice(text)).toEqual({ ok: false, message: FIELD_MESSAGES.unitPrice });
  });

  it('refuses zero as a price', () => {
    for (const zero of ['0', '0.0', '0000.000000']) {
      expect(readUnitPrice(zero)).toEqual({ ok: false, message: FIELD_MESSAGES.unitPriceNotZero });
    }
  });

  it('refuses longer text by its length, before any pattern sees it', () => {
    const padded = `${' '.repeat(MAX_UNIT_PRICE_TEXT - 1)}1`;
    expect(readUnitPrice(padded)).toEqual({ ok: true, micro: MICRO });
    expect(readUnitPrice(` ${padded}`)).toEqual({ ok: false, message: FIELD_MESSAGES.unitPrice });
    const original = RegExp.prototype.exec;
    let ran = 0;
    RegExp.prototype.exec = function exec(this: RegExp, input: string) {
      ran += 1;
      return original.call(this, input);
    };
    try {
      expect(readUnitPrice('1'.repeat(1_000_000)).ok).toBe(false);
    } finally {
      RegExp.prototype.exec = original;
    }
    expect(ran).toBe(0);
  });

  it('says the bound the highest price keeps', () => {
    expect(MAX_UNIT_PRICE_MICRO + 1n).toBe(10_000n * MICRO);
    expect(FIELD_MESSAGES.unitPrice).toContain('below 10,000');
  });

  it('writes millionths with always 6 places', () => {
    expect(formatDecimal6(1_234_500n)).toBe('1.234500');
    expect(formatDecimal6(-1n)).toBe('-0.000001');
    expect(formatDecimal6(0n)).toBe('0.000000');
    expect(formatDecimal6(-12_345_678n)).toBe('-12.345678');
    expect(formatDecimal6(123_456_789_012_345_678n)).toBe('123456789012.345678');
  });

  it('reads back every price it writes (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_UNIT_PRICE_MICRO }), (micro) => {
        expect(readUnitPrice(formatDecimal6(micro))).toEqual({ ok: true, micro });
      }),
    );
  });

  it('is a string in a request body, given on written to 6 places', () => {
    expect(unitPrice.parse('1.2345')).toBe('1.234500');
    expect(unitPrice.parse(' 2 ')).toBe('2.000000');
    expect(issuesOf(unitPrice, '0')).toEqual([
      { path: '', message: FIELD_MESSAGES.unitPriceNotZero },
    ]);
    expect(issuesOf(unitPrice, '')).toEqual([{ path: '', message: FIELD_MESSAGES.unitPrice }]);
    expect(issuesOf(unitPrice, '1,5')).toEqual([{ path: '', message: FIELD_MESSAGES.unitPrice }]);
    expect(issuesOf(unitPrice, '1'.repeat(1_000))).toEqual([
      { path: '', message: FIELD_MESSAGES.unitPrice },
    ]);
    expect(unitPrice.safeParse(1.5).success).toBe(false);
  });
});

describe('the units a sum of money buys or sells', () => {
  it('buys units to a millionth, rounded half away from zero', () => {
    // €100 at €1: 100 units.
    expect(unitsFor(10_000, MICRO)).toBe(100n * MICRO);
    // €1 at €3: 0.333333 (and a third); €2 at €3: 0.666667.
    expect(unitsFor(100, 3n * MICRO)).toBe(333_333n);
    expect(unitsFor(200, 3n * MICRO)).toBe(666_667n);
    // 1 cent at €4,000 is 2.5 millionths of a unit: a half, rounded away from zero.
    expect(unitsFor(1, 4_000n * MICRO)).toBe(3n);
    expect(unitsFor(-1, 4_000n * MICRO)).toBe(-3n);
    expect(unitsFor(0, MICRO)).toBe(0n);
  });

  it('sells for a negative amount, as many units as the amount would buy', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e11, max: 1e11 }),
        fc.bigInt({ min: 1n, max: MAX_UNIT_PRICE_MICRO }),
        (amount, price) => {
          expect(unitsFor(-amount, price)).toBe(-unitsFor(amount, price));
        },
      ),
    );
  });

  it('values units in whole cents, rounded half away from zero', () => {
    expect(valueCents(333_333n, 3n * MICRO)).toBe(100);
    expect(valueCents(100n * MICRO, 1_234_567n)).toBe(12_346);
    // A millionth of a unit at €5,000 is half a cent.
    expect(valueCents(1n, 5_000n * MICRO)).toBe(1);
    expect(valueCents(-1n, 5_000n * MICRO)).toBe(-1);
    expect(valueCents(0n, MICRO)).toBe(0);
  });

  it('takes only a price above 0 and below 10,000, and whole cents', () => {
    expect(() => unitsFor(100, 0n)).toThrow(RangeError);
    expect(() => unitsFor(100, TEN_TO_THE_TEN)).toThrow(RangeError);
    expect(() => unitsFor(1.5, MICRO)).toThrow(RangeError);
    expect(() => valueCents(1n, -1n)).toThrow(RangeError);
    expect(() => valueCents(1n, TEN_TO_THE_TEN)).toThrow(RangeError);
  });

  it('rounds to the nearest millionth of a unit (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e11, max: 1e11 }),
        fc.bigInt({ min: 1n, max: MAX_UNIT_PRICE_MICRO }),
        (amount, price) => {
          // |units − amount × 10^10 / price| ≤ 1/2, in whole numbers.
          const off = unitsFor(amount, price) * price - BigInt(amount) * TEN_TO_THE_TEN;
          expect((off < 0n ? -off : off) * 2n <= price).toBe(true);
        },
      ),
    );
  });

  it('reconciles to the cent: units × price is the money (property)', () => {
    const amounts = fc.oneof(
      fc.integer({ min: -1e11, max: 1e11 }),
      fc.constantFrom(1e11, -1e11, 1, -1, 0, 99_999_999_999),
    );
    const prices = fc.oneof(
      fc.bigInt({ min: 1n, max: TEN_TO_THE_TEN - 1n }),
      fc.constantFrom(1n, 2n, 3n, 7n, MICRO, TEN_TO_THE_TEN - 1n, TEN_TO_THE_TEN / 2n),
    );
    fc.assert(
      fc.property(amounts, prices, (amount, price) => {
        expect(valueCents(unitsFor(amount, price), price)).toBe(amount);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('money split across a fund choice', () => {
  it('gives each fund the whole cents of its share, and the rest by largest remainder', () => {
    const lines = (...percents: number[]) =>
      percents.map((percent, index) => ({ fundId: `f${index}`, percent }));
    const amounts = (amount: number, ...percents: number[]) =>
      splitByPercent(amount, lines(...percents)).map((part) => part.amountCents);
    expect(amounts(100, 33, 33, 34)).toEqual([33, 33, 34]);
    // 3.3, 3.3 and 3.4: the cent left goes to the largest remainder.
    expect(amounts(10, 33, 33, 34)).toEqual([3, 3, 4]);
    // 0.7, 1.4 and 4.9: two cents left, to the third and the first.
    expect(amounts(7, 10, 20, 70)).toEqual([1, 1, 5]);
    // A tie goes to the earlier line.
    expect(amounts(1, 50, 50)).toEqual([1, 0]);
    expect(amounts(3, 25, 25, 25, 25)).toEqual([1, 1, 1, 0]);
    expect(amounts(-1, 50, 50)).toEqual([-1, 0]);
    expect(amounts(-7, 10, 20, 70)).toEqual([-1, -1, -5]);
    expect(amounts(12_345, 100)).toEqual([12_345]);
    const zero = amounts(-0, 50, 50);
    expect(zero.every((part) => Object.is(part, 0))).toBe(true);
    expect(amounts(-1, 50, 50).every((part) => !Object.is(part, -0))).toBe(true);
  });

  it('keeps the funds in their order', () => {
    expect(
      splitByPercent(1_000, [
        { fundId: 'cash', percent: 40 },
        { fundId: 'equity', percent: 60 },
      ]),
    ).toEqual([
      { fundId: 'cash', amountCents: 400 },
      { fundId: 'equity', amountCents: 600 },
    ]);
  });

  it('takes only whole percentages adding up to 100, and whole cents', () => {
    expect(() => splitByPercent(100, [])).toThrow(RangeError);
    expect(() => splitByPercent(100, [{ fundId: 'a', percent: 99 }])).toThrow(RangeError);
    expect(() =>
      splitByPercent(100, [
        { fundId: 'a', percent: 50.5 },
        { fundId: 'b', percent: 49.5 },
      ]),
    ).toThrow(RangeError);
    expect(() => splitByPercent(0.5, [{ fundId: 'a', percent: 100 }])).toThrow(RangeError);
  });

  /** Whole percentages adding up to 100: the gaps between sorted cuts of 1 to 99. */
  const choice = fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 49 }).map((cuts) => {
    const points = [0, ...[...cuts].sort((a, b) => a - b), 100];
    return points
      .slice(1)
      .map((point, index) => ({ fundId: `fund-${index}`, percent: point - (points[index] ?? 0) }));
  });

  it('places every cent, each part within a cent of its share, in order (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), choice, (amount, lines) => {
        const parts = splitByPercent(amount, lines);
        expect(parts.map((part) => part.fundId)).toEqual(lines.map((line) => line.fundId));
        expect(parts.reduce((sum, part) => sum + part.amountCents, 0)).toBe(amount);
        parts.forEach((part, index) => {
          // |part − amount × percent / 100| < 1, in hundredths of a cent.
          const exact = BigInt(amount) * BigInt(lines[index]?.percent ?? 0);
          const off = BigInt(part.amountCents) * 100n - exact;
          expect((off < 0n ? -off : off) < 100n).toBe(true);
        });
        const opposite = splitByPercent(-amount, lines).map((part) => part.amountCents);
        expect(opposite).toEqual(
          parts.map((part) => (part.amountCents === 0 ? 0 : -part.amountCents)),
        );
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the monthly charge', () => {
  it('cancels a twelfth of the annual basis points of the units, to a millionth', () => {
    // 1,000 units at 1% a year: 0.833333 units a month.
    expect(monthlyChargeUnits(1_000n * MICRO, 100)).toBe(833_333n);
    // 12,000 units at 0.75%: 7.5 units.
    expect(monthlyChargeUnits(12_000n * MICRO, 75)).toBe(7_500_000n);
    // 0.06 units at 1 basis point: half a millionth, rounded away from zero.
    expect(monthlyChargeUnits(60_000n, 1)).toBe(1n);
    expect(monthlyChargeUnits(-60_000n, 1)).toBe(-1n);
    expect(monthlyChargeUnits(59_999n, 1)).toBe(0n);
    expect(monthlyChargeUnits(1_000n * MICRO, 0)).toBe(0n);
    expect(monthlyChargeUnits(0n, MAX_ANNUAL_CHARGE_BASIS_POINTS)).toBe(0n);
  });

  it('takes whole basis points up to 5%', () => {
    expect(MAX_ANNUAL_CHARGE_BASIS_POINTS).toBe(500);
    expect(monthlyChargeUnits(12n * MICRO, 500)).toBe(50_000n);
    for (const bps of [-1, 501, 1.5, Number.NaN]) {
      expect(() => monthlyChargeUnits(MICRO, bps)).toThrow(RangeError);
    }
  });

  it('is whole basis points from 0 to 500 in a request body', () => {
    const message = FIELD_MESSAGES.annualCharge(MAX_ANNUAL_CHARGE_BASIS_POINTS);
    expect(message).toBe('Enter the annual charge in whole basis points, from 0 to 500 (5%)');
    expect(annualChargeBasisPoints.parse(0)).toBe(0);
    expect(annualChargeBasisPoints.parse(500)).toBe(500);
    for (const bad of [-1, 501, 1.5, '100', null]) {
      expect(issuesOf(annualChargeBasisPoints, bad), String(bad)).toEqual([{ path: '', message }]);
    }
  });

  it("is taken on the month's last day", () => {
    expect(chargeDayOf('2026-01')).toBe('2026-01-31');
    expect(chargeDayOf('2026-02')).toBe('2026-02-28');
    expect(chargeDayOf('2028-02')).toBe('2028-02-29');
    expect(chargeDayOf('2000-02')).toBe('2000-02-29');
    expect(chargeDayOf('2100-02')).toBe('2100-02-28');
    expect(chargeDayOf('2026-04')).toBe('2026-04-30');
    expect(chargeDayOf('2026-12')).toBe('2026-12-31');
    expect(chargeDayOf('9999-12')).toBe('9999-12-31');
    for (const bad of ['2026-13', '2026-00', '2026-1', '202601', '2026-01-31', '']) {
      expect(() => chargeDayOf(bad), bad).toThrow(RangeError);
    }
  });
});

describe('a file of prices', () => {
  const file = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

  it('reads every row: fund as written, the date as ISO, the price exact', () => {
    expect(
      readFundPricesCsv(
        file(
          'Fund,Date,Price',
          'Global Equity,31/01/2026,1.2345',
          '  IE00B4L5Y983  ,2026-01-31, 12 ',
          '"Equity, Europe",1/2/2026,0.000001',
        ),
      ),
    ).toEqual({
      ok: true,
      rows: [
        {
          line: 2,
          fund: 'Global Equity',
          on: '2026-01-31',
          priceMicro: 1_234_500n,
          price: '1.234500',
        },
        {
          line: 3,
          fund: 'IE00B4L5Y983',
          on: '2026-01-31',
          priceMicro: 12n * MICRO,
          price: '12.000000',
        },
        { line: 4, fund: 'Equity, Europe', on: '2026-02-01', priceMicro: 1n, price: '0.000001' },
      ],
    });
  });

  it('matches the headings whatever their order, case and spaces, after a byte-order mark', () => {
    const reading = readFundPricesCsv('\uFEFF PRICE ,fund,Date\n1,Cash,2026-03-31\n\n,,\n');
    expect(reading).toEqual({
      ok: true,
      rows: [{ line: 2, fund: 'Cash', on: '2026-03-31', priceMicro: MICRO, price: '1.000000' }],
    });
  });

  it('lists every problem at once, by line, and reads no row of a bad file', () => {
    const reading = readFundPricesCsv(
      file(
        'Fund,Date,Price,Currency',
        'Cash,31/02/2026,1',
        'Cash,2026-01-31,"1,5"',
        ',2026-01-31,1',
        'Cash,01-31-2026,0',
        'Cash,2026-02-02,1.5',
      ),
    );
    expect(reading).toEqual({
      ok: false,
      problems: [
        {
          line: 1,
          message:
            'Currency is not a column of a prices file: its columns are Fund, Date and Price',
        },
        { line: 2, message: `Date: ${FIELD_MESSAGES.realDate}` },
        { line: 3, message: `Price: ${FIELD_MESSAGES.unitPrice}` },
        { line: 4, message: `Fund: ${FIELD_MESSAGES.fundNameOrIsin}` },
        { line: 5, message: `Date: ${FIELD_MESSAGES.fileDate}` },
        { line: 5, message: `Price: ${FIELD_MESSAGES.unitPriceNotZero}` },
      ],
    });
  });

  it('names each missing or repeated heading, and an unknown one by its place when it is no heading', () => {
    expect(readFundPricesCsv(file('Fund', 'Cash'))).toEqual({
      ok: false,
      problems: [
        {
          line: 1,
          message:
            'The heading row has no Date column: a prices file has the columns Fund, Date and Price',
        },
        {
          line: 1,
          message:
            'The heading row has no Price column: a prices file has the columns Fund, Date and Price',
        },
      ],
    });
    expect(readFundPricesCsv(file('Fund,Date,Price,price', 'Cash,2026-01-31,1,1'))).toEqual({
      ok: false,
      problems: [{ line: 1, message: 'Column D repeats the Price column' }],
    });
    const headless = readFundPricesCsv(file('Cash,2026-01-31,1.5', 'Cash,2026-02-28,1.6'));
    expect(headless.ok).toBe(false);
    const messages = headless.ok ? [] : headless.problems.map((problem) => problem.message);
    expect(messages).toContain(
      'Column B is not a column of a prices file: its columns are Fund, Date and Price',
    );
    expect(messages.join(' ')).not.toMatch(/2026|1\.5/);
  });

  it('refuses a fund and date given twice, the fund whatever its case, at the later line', () => {
    expect(
      readFundPricesCsv(
        file(
          'Fund,Date,Price',
          'Cash,31/01/2026,1',
          'Cash,2026-02-01,1',
          'Bonds,2026-01-31,1',
          'CASH,2026-01-31,1.1',
        ),
      ),
    ).toEqual({
      ok: false,
      problems: [
        { line: 5, message: 'The same fund and date as line 2: give each fund one price a day' },
      ],
    });
  });

  it('reports a row that is not CSV, and a row with more cells than headings, by their lines', () => {
    expect(
      readFundPricesCsv(
        file(
          'Fund,Date,Price',
          'Cash,2026-01-31,1"2',
          'Bonds,2026-01-31,1,extra',
          'Gilts,2026-01-31,1',
        ),
      ),
    ).toEqual({
      ok: false,
      problems: [
        {
          line: 2,
          message:
            'The row is not valid CSV: a cell with a quote in it must be quoted whole, its quotes doubled ("")',
        },
        { line: 3, message: `Column D ${tooManyCells(4, 3)}` },
      ],
    });
    expect(readFundPricesCsv('"Fund,Date,Price\nCash,2026-01-31,1\n')).toEqual({
      ok: false,
      problems: [
        { line: 1, message: 'The heading row is not valid CSV: a quoted cell is never closed' },
      ],
    });
  });

  it('refuses an empty file, and one with no prices', () => {
    const empty = {
      ok: false,
      problems: [
        {
          line: 1,
          message: 'The file is empty: its first line names the columns Fund, Date and Price',
        },
      ],
    };
    expect(readFundPricesCsv('')).toEqual(empty);
    expect(readFundPricesCsv('\r\n\n,,\n')).toEqual(empty);
    expect(readFundPricesCsv(file('Fund,Date,Price', ',,'))).toEqual({
      ok: false,
      problems: [{ line: 1, message: 'The file has no prices under its heading row' }],
    });
  });

  it('refuses a fund longer than a fund name, or with control characters', () => {
    expect(
      readFundPricesCsv(
        file('Fund,Date,Price', `${'x'.repeat(201)},2026-01-31,1`, 'Ca\u0007sh,2026-01-31,1'),
      ),
    ).toEqual({
      ok: false,
      problems: [
        { line: 2, message: 'Fund: Use at most 200 characters' },
        { line: 3, message: `Fund: ${FIELD_MESSAGES.controlCharacters}` },
      ],
    });
  });

  it(`takes ${MAX_PRICE_ROWS} rows, and refuses one more at its line`, () => {
    const rows = (count: number) =>
      Array.from({ length: count }, (_, index) => `Fund ${index},2026-01-31,1.25`);
    const full = readFundPricesCsv(file('Fund,Date,Price', ...rows(MAX_PRICE_ROWS)));
    expect(full.ok && full.rows.length).toBe(MAX_PRICE_ROWS);
    expect(readFundPricesCsv(file('Fund,Date,Price', ...rows(MAX_PRICE_ROWS + 5)))).toEqual({
      ok: false,
      problems: [
        {
          line: MAX_PRICE_ROWS + 2,
          message:
            'The file has more than 10,000 rows of prices: split it into files of at most that many',
        },
      ],
    });
  });

  it('never quotes a cell of a row in its problems (property)', () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('MARKER', 'MARKER.5', '31/02/MARKER', 'MARKER,1', '"MARKER"'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { maxLength: 8 }), (rows) => {
        const text = file(
          'Fund,Date,Price',
          ...rows.map((row) =>
            row.map((value) => `"${value.replaceAll('"', '""')}MARKER"`).join(','),
          ),
        );
        const reading = readFundPricesCsv(text);
        const said = reading.ok
          ? ''
          : reading.problems.map((problem) => problem.message).join('\n');
        expect(said).not.toContain('MARKER');
      }),
    );
  });
});

describe('the request bodies', () => {
  it("take a fund's prices, each day once, named when given twice", () => {
    expect(
      fundPricesInput.parse({
        prices: [
          { on: '2026-01-30', price: '1.5' },
          { on: '2026-01-31', price: '1.51' },
        ],
      }),
    ).toEqual({
      prices: [
        { on: '2026-01-30', price: '1.500000' },
        { on: '2026-01-31', price: '1.510000' },
      ],
    });
    expect(
      issuesOf(fundPricesInput, {
        prices: [
          { on: '2026-01-31', price: '1' },
          { on: '2026-01-30', price: '1' },
          { on: '2026-01-31', price: '1.1' },
        ],
      }),
    ).toEqual([
      {
        path: 'prices.2.on',
        message: 'The day 31/01/2026 is given more than once: give one price a day',
      },
    ]);
    expect(issuesOf(fundPricesInput, { prices: [] })).toEqual([
      { path: 'prices', message: 'Give at least one price' },
    ]);
    const many = Array.from({ length: MAX_PRICES_A_REQUEST + 1 }, () => ({
      on: '2026-01-31',
      price: '1',
    }));
    expect(issuesOf(fundPricesInput, { prices: many })).toContainEqual({
      path: 'prices',
      message: 'Give at most 1,000 prices at a time',
    });
    expect(issuesOf(fundPricesInput, { prices: [{ on: '2026-02-30', price: 1.5 }] })).toEqual([
      { path: 'prices.0.on', message: FIELD_MESSAGES.realDate },
      { path: 'prices.0.price', message: 'Enter text' },
    ]);
  });

  it('take a switch as a fund choice is taken: whole percentages, each fund once, adding up to 100', () => {
    const to = [
      { fundId: 'fund-a', percent: 60 },
      { fundId: 'fund-b', percent: 40 },
    ];
    expect(switchInput.parse({ to })).toEqual({ to });
    expect(issuesOf(switchInput, { to: [{ fundId: 'fund-a', percent: 90 }] })).toEqual([
      { path: 'to', message: 'The percentages must add up to exactly 100: they add up to 90' },
    ]);
    expect(
      issuesOf(switchInput, {
        to: [
          { fundId: 'fund-a', percent: 50 },
          { fundId: 'fund-a', percent: 50 },
        ],
      }),
    ).toEqual([{ path: 'to.1.fundId', message: 'Choose each fund only once' }]);
    expect(issuesOf(switchInput, { to: [] })).toContainEqual({
      path: 'to',
      message: 'Choose at least one fund',
    });
    expect(issuesOf(switchInput, { to: [{ fundId: 'fund-a', percent: 99.5 }] })).toContainEqual({
      path: 'to.0.percent',
      message: FIELD_MESSAGES.wholePercent,
    });
    const lines = Array.from({ length: MAX_PERCENT_LINES + 1 }, (_, index) => ({
      fundId: `fund-${index}`,
      percent: 1,
    }));
    expect(switchInput.safeParse({ to: lines }).success).toBe(false);
  });

  it('leave a fund choice held to the same rule, its messages where they were', () => {
    expect(
      issuesOf(fundChoiceInput, {
        allocations: [
          { fundId: 'fund-a', percent: 30 },
          { fundId: 'fund-a', percent: 30 },
        ],
      }),
    ).toEqual([
      {
        path: 'allocations',
        message: 'The percentages must add up to exactly 100: they add up to 60',
      },
      { path: 'allocations.1.fundId', message: 'Choose each fund only once' },
    ]);
  });
});

describe('the rules of DC money', () => {
  it('are each labelled, and none is law', () => {
    expect(Object.keys(DC_MONEY_RULES).sort()).toEqual([
      'annualCharge',
      'investmentDate',
      'negativeCorrections',
      'priceCorrections',
      'splitRounding',
      'switchPricing',
      'unitsRounding',
    ]);
    for (const [name, rule] of Object.entries(DC_MONEY_RULES)) {
      expect(RULE_LABELS, name).toContain(rule.label);
      expect(rule.label, name).not.toBe('law');
      expect(rule.citation.length, name).toBeGreaterThan(20);
    }
  });
});
