import { MAX_VALUE_POINTS } from '../../../contracts/investments.js';
import { addDays } from '../../../contracts/irish-dates.js';

/** The last day of the month of an ISO date. */
function monthEnd(isoDate: string): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  const firstOfNext =
    month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return addDays(firstOfNext, -1);
}

/**
 * The days a value history is read on: every month end from the month of `from` that falls before
 * `today`, then `today` itself. Where that is more than MAX_VALUE_POINTS, the month ends are spaced
 * out evenly, counted back from the latest, so the most recent months are always there and the
 * line keeps its shape.
 */
export function valuePointDays(from: string, today: string): string[] {
  const ends: string[] = [];
  for (let end = monthEnd(from); end < today; end = monthEnd(addDays(end, 1))) ends.push(end);
  const room = MAX_VALUE_POINTS - 1;
  const step = Math.ceil(ends.length / room) || 1;
  const kept = ends.filter((_, index) => (ends.length - 1 - index) % step === 0).slice(-room);
  return [...kept, today];
}
