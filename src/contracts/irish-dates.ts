/**
 * Dates as people in Ireland write them (docs/decisions/0050-irish-dates.md), shared by the web UI
 * (typed entry) and the server (CSV cells, "today"), so that the two can never read one entry
 * differently. The API itself keeps calendar dates as `YYYY-MM-DD` and pay periods as `YYYY-MM`
 * (docs/api.md, "Requests and answers"); only what people type and what spreadsheets hold is read
 * here.
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

/** The last day of a month: `2026-02` ends on `2026-02-28`. */
export function lastDayOfMonth(month: string): string {
  return `${month}-${pad(daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7))), 2)}`;
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

/** A pay period `YYYY-MM` as `MM/YYYY`, the one form a pay period is typed in; anything else as it is. */
export function formatIrishPeriod(period: string): string {
  return ISO_PERIOD.test(period) ? `${period.slice(5, 7)}/${period.slice(0, 4)}` : period;
}

/**
 * `YYYY-MM-DD` as `DD/MM/YYYY`, the form a date is typed in; anything else is given back as it is.
 * A date shown to be read is `dateInWords` (docs/decisions/0129-dates-shown-in-words.md).
 */
export function formatIrishDate(isoDate: string): string {
  if (!isIsoDate(isoDate)) return isoDate;
  return `${isoDate.slice(8, 10)}/${isoDate.slice(5, 7)}/${isoDate.slice(0, 4)}`;
}

/**
 * Dates shown to be read (docs/decisions/0129-dates-shown-in-words.md): day first, the month as a
 * word, as "3 Apr 1985", which no reader can take month first. The months are spelt here rather
 * than asked of `Intl`, whose Irish English short month differs between versions of ICU ("Sep" and
 * "Sept"), so the browser and the service write the same words.
 */
const MONTH_WORDS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A moment of the API's (`2026-04-03T13:05:00.000Z`), or null for text that is none. */
function momentOf(text: string): Date | null {
  if (text.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * A calendar date as "3 Apr 1985". A moment (`…T…Z`) is shown as its day in Ireland; anything
 * else is given back as it is.
 */
export function dateInWords(isoDate: string): string {
  if (isoDate.length !== MAX_DATE_ENTRY) return dateOrMomentInWords(isoDate);
  let words = datesInWords.get(isoDate);
  if (words === undefined) {
    if (datesInWords.size >= DATES_IN_WORDS_KEPT) datesInWords.clear();
    words = dateOrMomentInWords(isoDate);
    datesInWords.set(isoDate, words);
  }
  return words;
}

/**
 * The words of the days asked for lately. An assessment of a broker's schemes writes the same few
 * hundred days into thousands of reasons, and each writing checks the day against the calendar;
 * the words of a day never change, so they are kept, up to a bound, and the bound empties them.
 */
const datesInWords = new Map<string, string>();
const DATES_IN_WORDS_KEPT = 4096;

function dateOrMomentInWords(isoDate: string): string {
  const moment = momentOf(isoDate);
  const day = moment === null ? isoDate : todayInIreland(moment);
  if (!isIsoDate(day)) return isoDate;
  return `${Number(day.slice(8, 10))} ${MONTH_WORDS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

/** A pay period, `YYYY-MM`, as "Oct 2026"; anything else is given back as it is. */
export function periodInWords(period: string): string {
  const month = ISO_PERIOD.exec(period);
  const index = Number(month?.[2]) - 1;
  if (!month || index < 0 || index > 11) return period;
  return `${MONTH_WORDS[index]} ${month[1]}`;
}

/** A day of every year, `MM-DD` (a scheme year's end), as "31 December". */
export function dayOfYearInWords(monthDay: string): string {
  const index = Number(monthDay.slice(0, 2)) - 1;
  if (!/^\d{2}-\d{2}$/.test(monthDay) || index < 0 || index > 11) return monthDay;
  return `${Number(monthDay.slice(3, 5))} ${MONTH_NAMES[index]}`;
}

/** The twelve months' names, January first. */
export const MONTHS_IN_WORDS: readonly string[] = MONTH_NAMES;

let dublinClock: Intl.DateTimeFormat | undefined;

/** Made at the first use, as `dublinDayFormat` is. */
function dublinClockFormat(): Intl.DateTimeFormat {
  dublinClock ??= new Intl.DateTimeFormat('en-IE', {
    timeZone: IRISH_TIME_ZONE,
    numberingSystem: 'latn',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return dublinClock;
}

/**
 * A moment as "3 Apr 2026, 14:05": its day and its time on a clock in Dublin, summer time
 * included, wherever the reader's browser is. Text that is no moment is given back as it is.
 */
export function momentInWords(timestamp: string): string {
  const moment = momentOf(timestamp);
  if (moment === null) return timestamp;
  let hour = '';
  let minute = '';
  for (const part of dublinClockFormat().formatToParts(moment)) {
    if (part.type === 'hour') hour = part.value;
    else if (part.type === 'minute') minute = part.value;
  }
  return `${dateInWords(timestamp)}, ${hour}:${minute}`;
}

/** The time on a clock in Dublin at `at`, as `HH:MM` on the 24-hour clock. */
function clockInIreland(at: Date): string {
  let hour = '';
  let minute = '';
  for (const part of dublinClockFormat().formatToParts(at)) {
    if (part.type === 'hour') hour = part.value;
    else if (part.type === 'minute') minute = part.value;
  }
  return `${hour}:${minute}`;
}

const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The instant a clock in Dublin reads `time` (`HH:MM`, 24-hour) on `isoDate`, as an ISO instant,
 * or null when the time is no clock time or the clock never reads it that day (the hour skipped
 * when summer time begins). In the hour read twice when it ends, the first reading, in summer
 * time. Ireland is at UTC+1 in summer and UTC in winter, so those are the two offsets tried.
 */
export function instantInIreland(isoDate: string, time: string): string | null {
  if (!isIsoDate(isoDate) || !CLOCK_TIME.test(time)) return null;
  const asIfUtc = Date.parse(`${isoDate}T${time}:00Z`);
  for (const offsetHours of [1, 0]) {
    const at = new Date(asIfUtc - offsetHours * 3_600_000);
    if (todayInIreland(at) === isoDate && clockInIreland(at) === time) return at.toISOString();
  }
  return null;
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

const isoDay = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * The day `months` months after `isoDate` as a period in months is counted where the law sets one
 * (Regulation (EEC, Euratom) No 1182/71 Art. 3(2)(c)): the same day of the month, or the month's
 * last day where it has no such day (31 January and 1 month is 28 February, or 29 in a leap
 * year; 30 April and 1 month is 30 May).
 */
export function sameDayMonthsLater(isoDate: string, months: number): string {
  return monthsLater(isoDate, months, false);
}

/**
 * The day `months` months after `isoDate`: the same day of the month, or the month's last day
 * where it has no such day (31 August and 6 months is 28 February, or 29 in a leap year). A
 * period that starts on the last day of a month ends on the last day of its final month (30 June
 * and 9 months is 31 March), as a scheme year's deadlines are read.
 */
export function addMonths(isoDate: string, months: number): string {
  return monthsLater(isoDate, months, true);
}

function monthsLater(isoDate: string, months: number, monthEndToMonthEnd: boolean): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  const day = Number(isoDate.slice(8, 10));
  const index = year * 12 + (month - 1) + months;
  const toYear = Math.floor(index / 12);
  const toMonth = (index % 12) + 1;
  const last = daysInMonth(toYear, toMonth);
  const monthEnd = monthEndToMonthEnd && day === daysInMonth(year, month);
  return isoDay(toYear, toMonth, monthEnd ? last : Math.min(day, last));
}
