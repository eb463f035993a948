import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../contracts/pages.js';
import { ValidationError } from '../errors.js';

interface Position {
  at: Date;
  id: string;
}

function encodeCursor({ at, id }: Position): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const date = new Date(String(at));
    if (typeof id === 'string' && typeof at === 'string' && !Number.isNaN(date.getTime())) {
      return { at: date, id };
    }
  } catch {
    // answered below as a validation failure
  }
  throw new ValidationError([
    { path: 'cursor', code: 'invalid_cursor', message: 'Invalid cursor' },
  ]);
}

/**
 * Keyset pagination in a stable order (a time column, then id): pages never skip or repeat rows
 * when rows are added meanwhile, and the query stays an index range scan at any depth.
 */
export function keyset(
  page: PageQuery,
  columns: { at: AnyColumn; id: AnyColumn },
  direction: 'asc' | 'desc' = 'asc',
): { after: SQL | undefined; orderBy: SQL[]; take: number } {
  const position = page.cursor === undefined ? null : decodeCursor(page.cursor);
  const comparison = direction === 'asc' ? sql`>` : sql`<`;
  return {
    after: position
      ? sql`(${columns.at}, ${columns.id}) ${comparison} (${position.at.toISOString()}, ${position.id})`
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
