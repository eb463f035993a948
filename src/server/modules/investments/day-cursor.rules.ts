import { isIsoDate } from '../../../contracts/irish-dates.js';
import { ValidationError } from '../../platform/errors.js';

/**
 * The position in a list ordered by a day, then id: the ledger's movements, newest first. The
 * keyset pagination of the other lists (platform/db/keyset.ts) orders by a moment in time; a
 * movement is dealt on a day. Opaque to the client, as every cursor of the API is.
 */
export interface DayPosition {
  on: string;
  id: string;
}

export function encodeDayCursor({ on, id }: DayPosition): string {
  return Buffer.from(JSON.stringify([on, id])).toString('base64url');
}

export function decodeDayCursor(cursor: string): DayPosition {
  try {
    const [on, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof on === 'string' && isIsoDate(on) && typeof id === 'string' && id.length <= 64) {
      return { on, id };
    }
  } catch {
    // answered below as a validation failure
  }
  throw new ValidationError([
    { path: 'cursor', code: 'invalid_cursor', message: 'Invalid cursor' },
  ]);
}
