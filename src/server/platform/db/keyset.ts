import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { isIsoDate } from '../../../contracts/irish-dates.js';
import type { PageQuery } from '../../../contracts/pages.js';
import { ValidationError } from '../errors.js';

/**
 * Where a page ends: its last row's place in the order. Most lists are ordered by a moment (when
 * a row was written); the ledger's movements by the day they were dealt on, `YYYY-MM-DD`.
 */
interface Position {
  at: Date | string;
  id: string;
}

/** What the ordering column holds: a moment in time, or a day. */
export type KeysetOrder = 'moment' | 'day';

function encodeCursor({ at, id }: Position): string {
  const place = at instanceof Date ? at.toISOString() : at;
  return Buffer.from(JSON.stringify([place, id])).toString('base64url');
}

/** The cursor's place as the query compares it: an ISO moment, or an ISO day. */
function decodeCursor(cursor: string, order: KeysetOrder): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof id === 'string' && typeof at === 'string') {
      if (order === 'day') {
        if (isIsoDate(at) && id.length <= 64) return { at, id };
      } else {
        const date = new Date(at);
        if (!Number.isNaN(date.getTime())) return { at: date.toISOString(), id };
      }
    }
  } catch {
    // answered below as a validation failure
  }
  throw new ValidationError([
    { path: 'cursor', code: 'invalid_cursor', message: 'Invalid cursor' },
  ]);
}

/**
 * Keyset pagination in a stable order (a time or day column, then id): pages never skip or repeat
 * rows when rows are added meanwhile, and the query stays an index range scan at any depth.
 */
export function keyset(
  page: PageQuery,
  columns: { at: AnyColumn; id: AnyColumn },
  direction: 'asc' | 'desc' = 'asc',
  order: KeysetOrder = 'moment',
): { after: SQL | undefined; orderBy: SQL[]; take: number } {
  const position = page.cursor === undefined ? null : decodeCursor(page.cursor, order);
  const comparison = direction === 'asc' ? sql`>` : sql`<`;
  const at = order === 'day' ? sql`${position?.at} :: date` : sql`${position?.at}`;
  return {
    after: position
      ? sql`(${columns.at}, ${columns.id}) ${comparison} (${at}, ${position.id})`
      : undefined,
    orderBy:
      direction === 'asc'
        ? [sql`${columns.at} asc`, sql`${columns.id} asc`]
        : [sql`${columns.at} desc`, sql`${columns.id} desc`],
    // One more than asked: its presence says whether a next page exists.
    take: page.limit + 1,
  };
}

/** The answer of a list endpoint from rows fetched with `keyset(...).take`. */
export function pageFrom<T>(
  rows: T[],
  page: PageQuery,
  positionOf: (row: T) => Position,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > page.limit && last ? encodeCursor(positionOf(last)) : null,
  };
}
