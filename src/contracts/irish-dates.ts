/**
 * Dates as people in Ireland write them (docs/decisions/0050-irish-dates.md), shared by the web UI (typed entry)
 * and the server (CSV cells, "today"), so that the two can never read one entry differently. The
 * API itself keeps calendar dates as `YYYY-MM-DD` and pay periods as `YYYY-MM` (decisions.md §4);
 * only what people type and what spreadsheets hold is read here.
 *
 * The rules: day first, always (`02/03/2026` is 2 March, in any browser language); a year has four
 * digits (`02/03/26` is refused, never guessed); day and month may have one digit or two; the one
 * other form taken is the API's own `YYYY-MM-DD`, which cannot be read month first. A day that
 * does not exist (`31/04/2026`, `29/02/2025`) is refused, never moved to another.
 *
 * Every pattern is anchored, has no nested quantifier, and only runs on text already known to be
 * at most as long as its format: a CSV cell may be 25 MiB.
 */

/** Irish time: "today" is the day on a clock in Dublin, summer time included. */
export const IRISH_TIME_ZONE = 'Europe/Dublin';

/** `DD/MM/YYYY` and `YYYY-MM-DD` have ten characters; spaces around an entry are allowed. */
const MAX_DATE_ENTRY = 10;
/** `MM/YYYY` and `YYYY-MM` have seven. */
const MAX_PERIOD_ENTRY = 7;
/** Spaces a person may leave around what they type, before an entry is too long to read. */
const MAX_SURROUNDING_SPACE = 16;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_FIRST_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_PERIOD = /^(\d{4})-(\d{2})$/;
const MONTH_FIRST_PERIOD = /^(\d{1,2})\/(\d{4})$/;

/**
 * What a typed date or a date cell reads as: the ISO date, or why not. `format` is text that is
 * not a date as written here at all (including a two-digit year or a month name); `no_such_day`
 * is a date of the right shape that names no day of the calendar (day 31 of April, month 13).
 */
export type DateReading =
  | { ok: true; value: string }
  | { ok: false; reason: 'format' | 'no_such_day' };

const pad = (value: number, width: number) => String(value).padStart(width, '0');

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The days of a month, 1 to 12, of a (proleptic Gregorian) year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The ISO date of a year, month and day, if the (proleptic Gregorian) calendar has that day. */
function calendarDay(year: number, month: number, day: number): DateReading {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, reason: 'no_such_day' };
  }
  return { ok: true, value: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` };
}

/** The entry without the spaces around it, or null when it is longer than `max` characters. */
function boundedEntry(text: string, max: number): string | null {
  if (text.length > max + MAX_SURROUNDING_SPACE) return null;
  const entry = text.trim();
  return entry.length > max ? null : entry;
}

/**
 * A date as typed or as a spreadsheet writes it: `DD/MM/YYYY` (also `D/M/YYYY`), day first
 * whatever the browser's language, or `YYYY-MM-DD`.
 */
export function readIrishDate(text: string): DateReading {
  const entry = boundedEntry(text, MAX_DATE_ENTRY);
  if (entry === null) return { ok: false, reason: 'format' };
  const iso = ISO_DATE.exec(entry);
  if (iso) return calendarDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dayFirst = DAY_FIRST_DATE.exec(entry);
  if (dayFirst) return calendarDay(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
  return { ok: false, reason: 'format' };
}

/** `DD/MM/YYYY` (or `YYYY-MM-DD`) as the ISO date, or null for anything else. */
export function parseIrishDate(text: string): string | null {
  const reading = readIrishDate(text);
  return reading.ok ? reading.value : null;
}

/** True for `YYYY-MM-DD` naming a real calendar day: the API's form of a date. */
export function isIsoDate(text: string): boolean {
  if (text.length !== MAX_DATE_ENTRY) return false;
  const reading = readIrishDate(text);
  return reading.ok && reading.value === text;
}

/** A pay period as `MM/YYYY` (also `M/YYYY`), month first as a payslip writes it, or `YYYY-MM`. */
export function parseIrishPeriod(text: string): string | null {
  const entry = boundedEntry(text, MAX_PERIOD_ENTRY);
  if (entry === null) return null;
  const iso = ISO_PERIOD.exec(entry);
  const monthFirst = iso ? null : MONTH_FIRST_PERIOD.exec(entry);
  const year = Number(iso ? iso[1] : monthFirst?.[2]);
  const month = Number(iso ? iso[2] : monthFirst?.[1]);
  if (!(iso || monthFirst) || month < 1 || month > 12) return null;
  return `${pad(year, 4)}-${pad(month, 2)}`;
}

/** `YYYY-MM-DD` as `DD/MM/YYYY`; anything else is given back as it is. */
export function formatIrishDate(isoDate: string): string {
  if (!isIsoDate(isoDate)) return isoDate;
  return `${isoDate.slice(8, 10)}/${isoDate.slice(5, 7)}/${isoDate.slice(0, 4)}`;
}

let dublinDay: Intl.DateTimeFormat | undefined;

/**
 * Made at the first use, not when the module loads: a date format brings in several megabytes of
 * ICU's locale and time-zone data, which a process that never asks for the day does not need
 * (docs/decisions/0079-lazy-loading-for-idle-memory.md).
 */
function dublinDayFormat(): Intl.DateTimeFormat {
  dublinDay ??= new Intl.DateTimeFormat('en-IE', {
    timeZone: IRISH_TIME_ZONE,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return dublinDay;
}

/**
 * The calendar day in Ireland at `at`, as `YYYY-MM-DD`: from 23:00 UTC in Irish summer time
 * (IST, UTC+1) it is already tomorrow; in winter (GMT) the day turns at midnight UTC.
 */
export function todayInIreland(at: Date): string {
  let year = 0;
  let month = 0;
  let day = 0;
  for (const part of dublinDayFormat().formatToParts(at)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
  }
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The calendar day `days` after (or, negative, before) an ISO date; no clock is involved. */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(0);
  date.setUTCFullYear(
    Number(isoDate.slice(0, 4)),
    Number(isoDate.slice(5, 7)) - 1,
    Number(isoDate.slice(8, 10)) + days,
  );
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}
