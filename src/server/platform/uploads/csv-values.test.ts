import { isCuid } from '@paralleldrive/cuid2';
import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { parseCsvDate, parseEuroCents, parsePeriod, parseWholeCents } from './csv-values.js';
import { createRowIdSource } from './row-ids.js';

// The money rule itself is tested in src/contracts/money.test.ts; here, the codes an import gives.
describe('euro amounts into cents, exactly', () => {
  it.each([
    ['55000', 5_500_000],
    ['55000.00', 5_500_000],
    ['55,000.00', 5_500_000],
    ['55000.5', 5_500_050],
    ['0.07', 7],
    ['0', 0],
    ['€1,234,567.89', 123_456_789],
    ['€ 12.30', 1_230],
    // Floating point would give 1.1 * 100 = 110.00000000000001 and 4.35 * 100 = 434.99999999999994.
    ['1.10', 110],
    ['4.35', 435],
    ['9999999999999.99', 999_999_999_999_999],
  ])('%s is %i cents', (cell, cents) => {
    expect(parseEuroCents(cell)).toEqual({ ok: true, value: cents });
  });

  it.each(['-5', '-5.00', '-€5', '-1,000.00'])('%s is refused as negative', (cell) => {
    expect(parseEuroCents(cell)).toMatchObject({ ok: false, code: 'negative_amount' });
  });

  it.each([
    '',
    'abc',
    '5.001',
    '5.',
    '.5',
    '55,0000.00',
    '1,2345',
    '5 000',
    '1e5',
    '0x10',
    '12345678901234',
    '--5',
  ])('%j is refused as malformed, without repeating it', (cell) => {
    const parsed = parseEuroCents(cell);
    expect(parsed).toMatchObject({ ok: false, code: 'invalid_amount' });
    if (!parsed.ok && cell !== '') expect(parsed.message).not.toContain(cell);
  });

  it.each(['5,00', '1,23', '12,50', '€12,5', '1.234,56'])(
    '%j is refused as ambiguous, with the rule a form gives',
    (cell) => {
      expect(parseEuroCents(cell)).toEqual({
        ok: false,
        code: 'ambiguous_amount',
        message: FIELD_MESSAGES.ambiguousEuroAmount,
      });
    },
  );

  it('takes whole cents from a cents column', () => {
    expect(parseWholeCents('5500000')).toEqual({ ok: true, value: 5_500_000 });
    expect(parseWholeCents('-1')).toMatchObject({ ok: false, code: 'negative_amount' });
    expect(parseWholeCents('55000.00')).toMatchObject({ ok: false, code: 'invalid_amount' });
  });
});

describe('dates and periods', () => {
  it('takes ISO dates as they are and Irish day-first dates', () => {
    expect(parseCsvDate('1985-04-12')).toEqual({ ok: true, value: '1985-04-12' });
    expect(parseCsvDate('12/04/1985')).toEqual({ ok: true, value: '1985-04-12' });
    expect(parseCsvDate('1/9/2015')).toEqual({ ok: true, value: '2015-09-01' });
    for (const cell of ['04-12-1985', '1985/04/12', '12.04.1985', 'yesterday', '12/04/85']) {
      expect(parseCsvDate(cell)).toMatchObject({
        ok: false,
        code: 'invalid_date',
        message: 'Enter a date as DD/MM/YYYY (or YYYY-MM-DD)',
      });
    }
  });

  it('refuses a day the calendar does not have, never moving it to another', () => {
    for (const cell of ['31/04/2026', '29/02/2025', '12/31/1985', '2025-02-29']) {
      expect(parseCsvDate(cell), cell).toEqual({
        ok: false,
        code: 'invalid_date',
        message: 'Enter a date that exists on the calendar',
      });
    }
    expect(parseCsvDate('29/02/2024')).toEqual({ ok: true, value: '2024-02-29' });
  });

  it('takes pay periods as YYYY-MM, or MM/YYYY as payroll exports write them', () => {
    expect(parsePeriod('2026-01')).toEqual({ ok: true, value: '2026-01' });
    expect(parsePeriod('03/2026')).toEqual({ ok: true, value: '2026-03' });
    expect(parsePeriod('3/2026')).toEqual({ ok: true, value: '2026-03' });
    expect(parsePeriod('12/2026')).toEqual({ ok: true, value: '2026-12' });
    for (const cell of [
      '2026-13',
      '2026-1',
      '2026-00',
      '202601',
      '13/2026',
      '00/2026',
      '3/26',
      '03/26',
      '03-2026',
      '2026/03',
    ]) {
      expect(parsePeriod(cell), cell).toEqual({
        ok: false,
        code: 'invalid_period',
        message: 'Enter a pay period as YYYY-MM or MM/YYYY',
      });
    }
  });
});

describe('row ids', () => {
  it('are CUID2-shaped, 24 characters, and do not repeat', () => {
    const nextId = createRowIdSource();
    const ids = new Set<string>();
    for (let n = 0; n < 50_000; n += 1) {
      const id = nextId();
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(50_000);
    expect(isCuid(nextId())).toBe(true);
  });

  it('use every letter and digit about equally often', () => {
    const nextId = createRowIdSource();
    const counts = new Map<string, number>();
    for (let n = 0; n < 20_000; n += 1) {
      for (const character of nextId().slice(1)) {
        counts.set(character, (counts.get(character) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(36);
    const expected = (20_000 * 23) / 36;
    for (const count of counts.values())
      expect(Math.abs(count - expected) / expected).toBeLessThan(0.05);
  });
});
