/**
 * Cell formats a spreadsheet export produces, turned into what the field rules of the JSON API
 * take (member-fields.ts), so that a file is held to exactly what a form is. Nothing here uses
 * floating point: amounts are split into their digits and counted in whole cents.
 */

import { parseIrishPeriod, readIrishDate } from '../../../contracts/irish-dates.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/**
 * Euro as people type it: `55000`, `55000.5`, `55000.00`, `55,000.00`, with or without a leading
 * `€`. At most two decimals; thousands separators only in groups of three. Whole euro are limited
 * to 13 digits, so that the cents stay an exact JavaScript integer (the field rule caps them far
 * lower).
 */
const EURO = /^(\d{1,3}(?:,\d{3})+|\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * The longest cell each format can be (`€ 9,999,999,999,999.99` has 22 characters), with room
 * for spaces. Longer cells are refused before any pattern runs: a cell may be 64 KiB, and no
 * pattern of the import sees more than its field can hold.
 */
const MAX_AMOUNT_CELL = 32;
const MAX_DATE_CELL = 10;
const MAX_PERIOD_CELL = 7;

const INVALID_AMOUNT = {
  ok: false,
  code: 'invalid_amount',
  message: FIELD_MESSAGES.fileEuroAmount,
} as const;

/**
 * The cents of an amount written the plainest way, digits with at most two decimals (`1234`,
 * `1234.5`, `1234.56`), read character by character; -1 for any other cell, which
 * `parseEuroCents` then reads by the full rule. Every cell this accepts, the full rule accepts
 * with the same value: it is that rule's commonest case, read without a pattern or an object,
 * because a year's payroll has one and a half million amounts (docs/decisions/0074-reading-a-payroll-upload-faster.md).
 */
export function plainEuroCents(cell: string): number {
  const length = cell.length;
  let euro = 0;
  let at = 0;
  for (; at < length; at += 1) {
    const digit = cell.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) break;
    euro = euro * 10 + digit;
  }
  if (at === 0 || at > 13) return -1;
  if (at === length) return euro * 100;
  if (cell.charCodeAt(at) !== 46 || length - at > 3 || length - at < 2) return -1;
  let cents = 0;
  for (let place = at + 1; place < at + 3; place += 1) {
    const digit = place < length ? cell.charCodeAt(place) - 48 : 0;
    if (digit < 0 || digit > 9) return -1;
    cents = cents * 10 + digit;
  }
  return euro * 100 + cents;
}

export function parseEuroCents(cell: string): Parsed<number> {
  const plain = plainEuroCents(cell);
  if (plain >= 0) return { ok: true, value: plain };
  if (cell.length > MAX_AMOUNT_CELL) return INVALID_AMOUNT;
  const text = cell.replace(/^€\s*/, '');
  if (text.startsWith('-') && EURO.test(text.slice(1).replace(/^€\s*/, ''))) {
    return { ok: false, code: 'negative_amount', message: FIELD_MESSAGES.notNegative };
  }
  const match = EURO.exec(text);
  if (!match) return INVALID_AMOUNT;
  const euro = Number((match[1] as string).replaceAll(',', ''));
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return { ok: true, value: euro * 100 + cents };
}

/** Whole cents as digits, for a column that already holds cents. */
export function parseWholeCents(cell: string): Parsed<number> {
  if (cell.length > MAX_AMOUNT_CELL) {
    return { ok: false, code: 'invalid_amount', message: FIELD_MESSAGES.wholeCents };
  }
  if (/^-\d+$/.test(cell)) {
    return { ok: false, code: 'negative_amount', message: FIELD_MESSAGES.notNegative };
  }
  if (!/^\d{1,15}$/.test(cell)) {
    return { ok: false, code: 'invalid_amount', message: FIELD_MESSAGES.wholeCents };
  }
  return { ok: true, value: Number(cell) };
}

/**
 * `YYYY-MM-DD`, or `DD/MM/YYYY` as Irish spreadsheets write dates (day first, never month first;
 * `1/9/2015` is 1 September), as `YYYY-MM-DD`, by the same rule as a date typed in the web UI
 * (`contracts/irish-dates.ts`). A day the calendar does not have is refused in the field rule's
 * own words.
 */
export function parseCsvDate(cell: string): Parsed<string> {
  const reading = cell.length <= MAX_DATE_CELL ? readIrishDate(cell) : null;
  if (reading?.ok) return { ok: true, value: reading.value };
  if (reading?.reason === 'no_such_day') {
    return { ok: false, code: 'invalid_date', message: FIELD_MESSAGES.realDate };
  }
  return {
    ok: false,
    code: 'invalid_date',
    message: FIELD_MESSAGES.fileDate,
  };
}

/** A pay period, `YYYY-MM`, or `MM/YYYY` as payroll exports write it, as `YYYY-MM`. */
export function parsePeriod(cell: string): Parsed<string> {
  const period = cell.length <= MAX_PERIOD_CELL ? parseIrishPeriod(cell) : null;
  if (period !== null) return { ok: true, value: period };
  return {
    ok: false,
    code: 'invalid_period',
    message: FIELD_MESSAGES.filePayPeriod,
  };
}
