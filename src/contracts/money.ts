import { z } from 'zod';
import { FIELD_MESSAGES } from './plain-english.js';

/**
 * Money, the one rule for the server and every page of the web UI
 * (docs/decisions/0100-one-money-rule.md): euro as a person types it in a form or a spreadsheet
 * writes it in a CSV cell, read into whole cents without floating point, and whole cents shown in
 * Irish English.
 *
 * Accepted, with spaces around ignored: digits with a full stop before at most two decimals
 * (`1234`, `1234.5`, `1234.56`), the euro digits grouped in threes by commas (`1,234.56`,
 * `55,000`), and a leading `€` (`€1,234.56`, `€ 12.30`). A minus sign (`-25.00`, `−25.00`,
 * `-€25.00`) only where the caller allows a negative amount.
 *
 * Refused, never guessed:
 * - a comma followed by one or two digits at the end (`1,23`, `12,50`, `12,5`, `1.234,56`): in
 *   Ireland a comma separates thousands, across much of Europe it is the decimal point, and
 *   reading it either way can be a hundred times wrong;
 * - thousands separators anywhere but between groups of three (`1,2345`, `55,0000.00`), or
 *   spaces between digits (`5 000`);
 * - more than two decimals (`5.001`), a point without digits on both sides (`5.`, `.5`),
 *   exponents and hexadecimal (`1e5`, `0x10`), more than 13 euro digits.
 */

/** Why an amount was not read. */
export type EuroRefusal = 'ambiguous' | 'negative' | 'invalid';

export type EuroReading =
  | { ok: true; cents: number }
  | { ok: false; refusal: EuroRefusal; message: string };

export interface EuroRules {
  /** Whether a minus sign is read (a correction); otherwise a negative amount is refused. */
  negative?: 'allowed' | 'refused';
}

/**
 * Longer text is refused before any pattern runs (`€ 9,999,999,999,999.99` has 22 characters,
 * with room for spaces): a CSV cell may be 64 KiB, and no pattern sees more than an amount can
 * hold (docs/decisions/0034-linear-patterns.md).
 */
export const MAX_EURO_TEXT = 32;

/**
 * Whole euro digits kept: 13, so that cents (`euro * 100 + cents`) stay an exact integer; every
 * field caps amounts far lower.
 */
const MAX_EURO_DIGITS = 13;

/** Digits, or digits grouped in threes by commas; then at most two decimals after a full stop. */
const EURO = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** A comma and one or two final digits, after digits and separators only: `1,23`, `1.234,56`. */
const DECIMAL_COMMA = /^\d[\d.,]*,\d{1,2}$/;

/** How a person is told what to write instead, in the words of FIELD_MESSAGES. */
export const EURO_FORMAT_HINT =
  'Euro with a full stop before the cents, e.g. 45000.00 or 45,000.00 (a comma only separates thousands)';

/**
 * The cents of an amount written the plainest way, digits with at most two decimals (`1234`,
 * `1234.5`, `1234.56`), read character by character; -1 for any other text, which `readEuro` then
 * reads by the full rule. Every text this accepts, the full rule accepts with the same value: it
 * is that rule's commonest case, read without a pattern or an object, because a year's payroll
 * has one and a half million amounts (docs/decisions/0074-reading-a-payroll-upload-faster.md).
 */
export function plainEuroCents(text: string): number {
  const length = text.length;
  let euro = 0;
  let at = 0;
  for (; at < length; at += 1) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) break;
    euro = euro * 10 + digit;
  }
  if (at === 0 || at > MAX_EURO_DIGITS) return -1;
  if (at === length) return euro * 100;
  if (text.charCodeAt(at) !== 46 || length - at > 3 || length - at < 2) return -1;
  let cents = 0;
  for (let place = at + 1; place < at + 3; place += 1) {
    const digit = place < length ? text.charCodeAt(place) - 48 : 0;
    if (digit < 0 || digit > 9) return -1;
    cents = cents * 10 + digit;
  }
  return euro * 100 + cents;
}

const isMinus = (character: string | undefined) => character === '-' || character === '\u2212';

/** Past a leading `€` and the spaces after it. */
function afterEuroSign(text: string): string {
  if (!text.startsWith('€')) return text;
  let at = 1;
  while (at < text.length && (text[at] === ' ' || text[at] === '\u00a0')) at += 1;
  return text.slice(at);
}

function refused(refusal: EuroRefusal, rules: EuroRules): EuroReading {
  const message =
    refusal === 'ambiguous'
      ? FIELD_MESSAGES.ambiguousEuroAmount
      : refusal === 'negative'
        ? FIELD_MESSAGES.notNegative
        : rules.negative === 'allowed'
          ? FIELD_MESSAGES.signedEuroAmount
          : FIELD_MESSAGES.euroAmount;
  return { ok: false, refusal, message };
}

/**
 * Euro typed by a person or found in a CSV cell, as whole cents (the rule above). The message of
 * a refusal never repeats the text: it may be a CSV cell holding anything.
 */
export function readEuro(input: string, rules: EuroRules = {}): EuroReading {
  const plain = plainEuroCents(input);
  if (plain >= 0) return { ok: true, cents: plain };
  if (input.length > MAX_EURO_TEXT) return refused('invalid', rules);
  let text = input.trim();
  let negative = isMinus(text[0]);
  if (negative) text = text.slice(1);
  text = afterEuroSign(text);
  if (!negative && isMinus(text[0])) {
    negative = true;
    text = text.slice(1);
  }
  const match = EURO.exec(text);
  if (!match) return refused(DECIMAL_COMMA.test(text) ? 'ambiguous' : 'invalid', rules);
  const euroDigits = (match[1] as string).replaceAll(',', '');
  if (euroDigits.length > MAX_EURO_DIGITS) return refused('invalid', rules);
  if (negative && rules.negative !== 'allowed') return refused('negative', rules);
  const cents = Number(euroDigits) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
}

/** What a form shows under an amount field: null when the rule reads it, else its sentence. */
export function euroFieldError(typed: string, rules: EuroRules = {}): string | null {
  const reading = readEuro(typed, rules);
  return reading.ok ? null : reading.message;
}

/** A column that already holds whole cents, as digits (`4500000`). */
export function readWholeCents(input: string): EuroReading {
  const invalid = { ok: false, refusal: 'invalid', message: FIELD_MESSAGES.wholeCents } as const;
  if (input.length > MAX_EURO_TEXT) return invalid;
  if (/^-\d+$/.test(input)) {
    return { ok: false, refusal: 'negative', message: FIELD_MESSAGES.notNegative };
  }
  if (!/^\d{1,15}$/.test(input)) return invalid;
  return { ok: true, cents: Number(input) };
}

/** The euro digits of whole cents grouped in threes (`1,234,567`), and the two cent digits. */
function euroAndCents(cents: number): { sign: string; euro: string; cents: string } {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(Math.trunc(cents));
  const euro = String(Math.floor(whole / 100));
  const grouped = euro.replace(/\B(?=(\d{3})+$)/g, ',');
  return { sign, euro: grouped, cents: String(whole % 100).padStart(2, '0') };
}

/** Whole cents as a person reads them in Ireland: `€1,234.56`, `-€25.00`. */
export function formatCents(cents: number): string {
  const parts = euroAndCents(cents);
  return `${parts.sign}€${parts.euro}.${parts.cents}`;
}

/**
 * Whole cents as euro a form field starts with, or a file cell holds: `1234.56`, `-25.00`; what
 * `readEuro` reads back to the same cents.
 */
export function plainEuro(cents: number): string {
  const parts = euroAndCents(cents);
  return `${parts.sign}${parts.euro.replaceAll(',', '')}.${parts.cents}`;
}

let compactEuro: Intl.NumberFormat | undefined;

/**
 * Whole cents rounded for a chart's axis: `€1.2K`, `€35K`. Made at the first use, not when the
 * module loads, as the server never draws a chart (docs/decisions/0079-lazy-loading-for-idle-memory.md).
 */
export function formatCentsCompact(cents: number): string {
  compactEuro ??= new Intl.NumberFormat('en-IE', {
    style: 'currency',
    currency: 'EUR',
    notation: 'compact',
  });
  return compactEuro.format(cents / 100);
}

/** The largest amount a field takes: a year's salary above €100 million is a typing mistake. */
export const MAX_CENTS = 10_000_000_000;

/**
 * Euro cents as a whole number, 0 or more, as the JSON API takes an amount (a form sends what
 * `readEuro` read; text such as `"12,50"` is refused, never read here). Each check carries its
 * own sentence (docs/decisions/0052-form-errors-in-plain-english.md).
 */
export const cents = z
  .number({ error: FIELD_MESSAGES.wholeCents })
  .int(FIELD_MESSAGES.wholeCents)
  .min(0, FIELD_MESSAGES.notNegative)
  .max(MAX_CENTS, FIELD_MESSAGES.euroTooLarge);

/** A signed change in whole cents, other than zero: a correction. */
export const signedCents = z
  .number({ error: FIELD_MESSAGES.wholeCents })
  .int(FIELD_MESSAGES.wholeCents)
  .min(-MAX_CENTS, FIELD_MESSAGES.euroTooLarge)
  .max(MAX_CENTS, FIELD_MESSAGES.euroTooLarge)
  .refine((value) => value !== 0, FIELD_MESSAGES.notZero);
