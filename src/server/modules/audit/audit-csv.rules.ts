import { todayInIreland } from '../../../contracts/irish-dates.js';

/**
 * The audit log as CSV (docs/decisions/0051-readable-audit-log.md): times as read in Ireland and a file name of the Irish
 * day. The cells themselves are written by the shared CSV writer (src/contracts/csv.ts).
 */

let irishTime: Intl.DateTimeFormat | undefined;

/** Made with the first export rather than at start-up: ICU's data for it is megabytes (irish-dates.ts). */
function irishTimeFormat(): Intl.DateTimeFormat {
  irishTime ??= new Intl.DateTimeFormat('en-IE', {
    timeZone: 'Europe/Dublin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  return irishTime;
}

/**
 * A moment as read in Ireland, day first: `25/10/2026 01:30:00 IST`. The zone's name tells the
 * two 01:30s of the night the clocks go back apart.
 */
export function irishLocalTime(moment: Date): string {
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of irishTimeFormat().formatToParts(moment)) part[type] = value;
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute}:${part.second} ${part.timeZoneName}`;
}

/** The file's name: fixed words and the day it was made, nothing a request supplies. */
export function exportFileName(at: Date): string {
  return `audit-log-${todayInIreland(at)}.csv`;
}
