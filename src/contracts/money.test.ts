import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cents,
  euroFieldError,
  formatCents,
  formatCentsCompact,
  MAX_EURO_TEXT,
  plainEuro,
  plainEuroCents,
  readEuro,
  readWholeCents,
  signedCents,
} from './money.js';
import { FIELD_MESSAGES } from './plain-english.js';

/** The cents of digits and decimals counted in BigInt: an oracle free of floating point. */
const exactCents = (euro: string, decimals = '') =>
  Number(BigInt(euro) * 100n + BigInt(decimals.padEnd(2, '0')));

describe('euro typed by a person or found in a CSV cell, read into whole cents', () => {
  it.each([
    ['1234', 123_400],
    ['1234.5', 123_450],
    ['1234.56', 123_456],
    ['1,234.56', 123_456],
    ['€1,234.56', 123_456],
    ['€ 12.30', 1_230],
    ['  12.50  ', 1_250],
    ['12.50', 1_250],
    ['55,000', 5_500_000],
    ['12,500', 1_250_000],
    ['1,234,567.89', 123_456_789],
    ['0.07', 7],
    ['0', 0],
    ['007', 700],
    ['9999999999999.99', 999_999_999_999_999],
    // Floating point gives 1.1 * 100 = 110.00000000000001 and 4.35 * 100 = 434.99999999999994.
    ['1.10', 110],
    ['4.35', 435],
    ['0.29', 29],
    ['1.00', 100],
  ])('%j is %i cents', (typed, expected) => {
    expect(readEuro(typed)).toEqual({ ok: true, cents: expected });
  });

  it.each(['1,23', '12,50', '12,5', '1,5', '0,07', '€12,50', ' 12,50 ', '1.234,56', '1,234,56'])(
    '%j is refused as ambiguous (a decimal comma, or thousands?), never guessed',
    (typed) => {
      expect(readEuro(typed)).toEqual({
        ok: false,
        refusal: 'ambiguous',
        message: FIELD_MESSAGES.ambiguousEuroAmount,
      });
      expect(readEuro(typed, { negative: 'allowed' })).toMatchObject({ refusal: 'ambiguous' });
      expect(readEuro(`-${typed.trim()}`, { negative: 'allowed' })).toMatchObject({
        refusal: 'ambiguous',
      });
    },
  );

  it('says how to write the cents instead, without repeating what was typed', () => {
    const refusal = readEuro('12,50');
    expect(refusal.ok).toBe(false);
    if (refusal.ok) return;
    expect(refusal.message).toBe(
      'Write the cents after a full stop, like 12.50: a comma only separates thousands, as in 1,250.00',
    );
    expect(readEuro('987,65')).toEqual(refusal);
  });

  it.each([
    '',
    '   ',
    'abc',
    '€',
    '5.001',
    '12.345',
    '5.',
    '.5',
    '5..0',
    '55,0000.00',
    '1,2345',
    ',123',
    '1,,234',
    '12,50.00',
    '5 000',
    '1e5',
    '0x10',
    '+5',
    '5€',
    '12345678901234',
    '10,000,000,000,000.00',
    '--5',
    '€€5',
    '5-',
  ])('%j is refused as not an amount, without repeating it', (typed) => {
    const reading = readEuro(typed);
    expect(reading).toEqual({
      ok: false,
      refusal: 'invalid',
      message: FIELD_MESSAGES.euroAmount,
    });
  });

  it('refuses text longer than any amount before a pattern reads it', () => {
    const long = `${'1'.repeat(MAX_EURO_TEXT - 3)}.00x`;
    expect(long.length).toBeGreaterThan(MAX_EURO_TEXT);
    expect(readEuro(long)).toMatchObject({ ok: false, refusal: 'invalid' });
    expect(readEuro(`€${' '.repeat(MAX_EURO_TEXT)}5`)).toMatchObject({ refusal: 'invalid' });
  });

  it('refuses a negative amount unless the caller allows one, then reads it signed', () => {
    for (const typed of ['-25.00', '−25.00', '-€25.00', '€-25.00', '-1,000.00', '-0.50']) {
      expect(readEuro(typed), typed).toEqual({
        ok: false,
        refusal: 'negative',
        message: FIELD_MESSAGES.notNegative,
      });
    }
    const allowed = { negative: 'allowed' } as const;
    expect(readEuro('-25.00', allowed)).toEqual({ ok: true, cents: -2_500 });
    expect(readEuro('−25.5', allowed)).toEqual({ ok: true, cents: -2_550 });
    expect(readEuro('-€1,000.00', allowed)).toEqual({ ok: true, cents: -100_000 });
    expect(readEuro('€-0.07', allowed)).toEqual({ ok: true, cents: -7 });
    expect(readEuro('10.50', allowed)).toEqual({ ok: true, cents: 1_050 });
    expect(Object.is((readEuro('-0', allowed) as { cents: number }).cents, 0)).toBe(true);
    expect(readEuro('--5', allowed)).toEqual({
      ok: false,
      refusal: 'invalid',
      message: FIELD_MESSAGES.signedEuroAmount,
    });
  });

  it('reads every amount with up to 13 euro digits and 2 decimals exactly, with or without thousands commas', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{0,12}$/),
        fc.stringMatching(/^\d{0,2}$/),
        fc.boolean(),
        fc.boolean(),
        (euro, decimals, grouped, sign) => {
          const digits = grouped ? euro.replace(/\B(?=(\d{3})+$)/g, ',') : euro;
          const typed = `${sign ? '€' : ''}${digits}${decimals === '' ? '' : `.${decimals}`}`;
          expect(readEuro(typed)).toEqual({ ok: true, cents: exactCents(euro, decimals) });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('never reads a final comma and one or two digits as money, however the rest is written', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9][0-9.,]{0,12}$/),
        fc.stringMatching(/^\d{1,2}$/),
        (before, after) => {
          expect(readEuro(`${before},${after}`)).toMatchObject({ ok: false });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads a plain amount quickly only where the full rule reads it the same, and leaves every other text to it', () => {
    const plain = /^(\d{1,13})(?:\.(\d{1,2}))?$/;
    const text = fc.string({
      unit: fc.constantFrom('0', '1', '5', '9', '.', ',', '€', ' ', '-', 'e'),
      maxLength: 18,
    });
    fc.assert(
      fc.property(fc.oneof(text, fc.stringMatching(plain)), (typed) => {
        const match = plain.exec(typed);
        const expected = match ? exactCents(match[1] as string, match[2]) : -1;
        expect(plainEuroCents(typed)).toBe(expected);
        if (match) expect(readEuro(typed)).toEqual({ ok: true, cents: expected });
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives a form the sentence to show under an amount field, and none for an amount', () => {
    expect(euroFieldError('250.00')).toBeNull();
    expect(euroFieldError('')).toBe(FIELD_MESSAGES.euroAmount);
    expect(euroFieldError('12,50')).toBe(FIELD_MESSAGES.ambiguousEuroAmount);
    expect(euroFieldError('-5')).toBe(FIELD_MESSAGES.notNegative);
    expect(euroFieldError('-5', { negative: 'allowed' })).toBeNull();
    expect(euroFieldError('', { negative: 'allowed' })).toBe(FIELD_MESSAGES.signedEuroAmount);
  });
});

describe('a column of whole cents', () => {
  it('takes digits alone', () => {
    expect(readWholeCents('5500000')).toEqual({ ok: true, cents: 5_500_000 });
    expect(readWholeCents('-1')).toMatchObject({ ok: false, refusal: 'negative' });
    for (const typed of ['55000.00', '1,000', '12,50', '', '1'.repeat(16), '1'.repeat(40)]) {
      expect(readWholeCents(typed), typed).toEqual({
        ok: false,
        refusal: 'invalid',
        message: FIELD_MESSAGES.wholeCents,
      });
    }
  });
});

describe('whole cents shown in Irish English', () => {
  it.each([
    [0, '€0.00', '0.00'],
    [7, '€0.07', '0.07'],
    [1_250, '€12.50', '12.50'],
    [123_456, '€1,234.56', '1234.56'],
    [100_000_000, '€1,000,000.00', '1000000.00'],
    [-2_500, '-€25.00', '-25.00'],
    [-5, '-€0.05', '-0.05'],
    [999_999_999_999_999, '€9,999,999,999,999.99', '9999999999999.99'],
  ])('%i cents are %s, and %s in a field', (amount, shown, plain) => {
    expect(formatCents(amount)).toBe(shown);
    expect(plainEuro(amount)).toBe(plain);
  });

  it('shows what Intl shows for euro in en-IE, without dividing into a float', () => {
    const intl = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), (amount) => {
        expect(formatCents(amount)).toBe(intl.format(plainEuro(amount) as `${number}`));
      }),
      { numRuns: 1_000 },
    );
  });

  it('gives back text the rule reads to the same cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }), (amount) => {
        const allowed = { negative: 'allowed' } as const;
        expect(readEuro(plainEuro(amount), allowed)).toEqual({ ok: true, cents: amount });
        expect(readEuro(formatCents(amount), allowed)).toEqual({ ok: true, cents: amount });
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds for a chart axis only', () => {
    expect(formatCentsCompact(123_456)).toBe('€1.2K');
    expect(formatCentsCompact(3_500_000)).toBe('€35K');
  });
});

describe('amounts the JSON API takes', () => {
  it('are whole cents, never text, with a sentence for each refusal', () => {
    expect(cents.safeParse(1_250).success).toBe(true);
    for (const [value, message] of [
      ['12,50', FIELD_MESSAGES.wholeCents],
      ['12.50', FIELD_MESSAGES.wholeCents],
      [12.5, FIELD_MESSAGES.wholeCents],
      [-1, FIELD_MESSAGES.notNegative],
      [10_000_000_001, FIELD_MESSAGES.euroTooLarge],
    ] as const) {
      const parsed = cents.safeParse(value);
      expect(parsed.success, String(value)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(message);
    }
    expect(signedCents.safeParse(-2_500).success).toBe(true);
    expect(signedCents.safeParse(0).error?.issues[0]?.message).toBe(FIELD_MESSAGES.notZero);
    expect(signedCents.safeParse('-25,00').error?.issues[0]?.message).toBe(
      FIELD_MESSAGES.wholeCents,
    );
  });
});
