import { dateInWords, momentInWords, periodInWords } from '../contracts/irish-dates';

/**
 * How the web UI shows dates: one way, day first with the month as a word ("3 Apr 1985"), by the
 * rule the service writes its own texts with (src/contracts/irish-dates.ts,
 * docs/decisions/0129-dates-shown-in-words.md). Every page shows dates through these; a test
 * (test/web/one-date-format.test.ts) keeps any other way out. Money is read and shown by the rule
 * the server holds it to, src/contracts/money.ts (docs/decisions/0100-one-money-rule.md).
 */

/** A calendar date (`YYYY-MM-DD`) as "3 Apr 1985"; a moment as its day in Ireland. */
export function formatDate(isoDate: string): string {
  return dateInWords(isoDate);
}

/** A date that may be missing: "—" for none. */
export function formatOptionalDate(isoDate: string | null | undefined): string {
  return isoDate ? dateInWords(isoDate) : '—';
}

/** A moment as "3 Apr 2026, 14:05", on a clock in Dublin. */
export function formatDateTime(isoTimestamp: string): string {
  return momentInWords(isoTimestamp);
}

/** A pay period `YYYY-MM` as "Oct 2026". */
export function formatPeriod(period: string): string {
  return periodInWords(period);
}
