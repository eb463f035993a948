/**
 * Cell formats a spreadsheet export produces, turned into what the field rules of the JSON API
 * take (member-fields.rules.ts), so that a file is held to exactly what a form is: dates and periods
 * by the rule of `contracts/irish-dates.ts`, money by that of `contracts/money.ts`, each answered
 * with a stable issue code.
 */

import { parseIrishPeriod, readIrishDate } from '../../../contracts/irish-dates.js';
import {
  type EuroReading,
  type EuroRefusal,
  readEuro,
  readWholeCents,
} from '../../../contracts/money.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/**
 * The longest cell each format can be. Longer cells are refused before any pattern runs: a cell
 * may be 64 KiB, and no pattern of the import sees more than its field can hold.
 */
const MAX_DATE_CELL = 10;
const MAX_PERIOD_CELL = 7;

/** The stable codes of docs/imports.md for the money rule's refusals. */
const AMOUNT_CODES: Record<EuroRefusal, string> = {
  ambiguous: 'ambiguous_amount',
  negative: 'negative_amount',
  invalid: 'invalid_amount',
};

function amountOf(reading: EuroReading): Parsed<number> {
  return reading.ok
    ? { ok: true, value: reading.cents }
    : { ok: false, code: AMOUNT_CODES[reading.refusal], message: reading.message };
}

/**
 * Euro in a cell, by the rule a form reads typed euro with (`src/contracts/money.ts`,
 * docs/decisions/0100-one-money-rule.md): `55000`, `55,000.00`, `€55,000.00`; never negative, and
 * `55000,00` refused as ambiguous rather than read as either of its meanings.
 */
export function parseEuroCents(cell: string): Parsed<number> {
  return amountOf(readEuro(cell));
}

/** Whole cents as digits, for a column that already holds cents. */
export function parseWholeCents(cell: string): Parsed<number> {
  return amountOf(readWholeCents(cell));
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
