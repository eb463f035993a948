/**
 * How a field's error reads: as a sentence of its own, after the field's label. A screen reader
 * reads an input's label and then its error ("Password", "Use at least 12 characters"); with
 * nothing between them and no full stop after, the two run together into no sentence at all. So
 * the error is introduced, for assistive technology only, as an error, and closed with a full
 * stop that is read but not shown (docs/decisions/0126-field-errors-read-as-sentences.md). What is
 * shown, and the messages themselves (src/contracts/plain-english.ts), stay as the API gives them.
 */

/** What introduces a field's error to a screen reader, unseen. */
export const FIELD_ERROR_PREFIX = 'Error: ';

/** The full stop a message needs to end as a sentence: none when it ends with its own. */
export function closingStop(message: string): string {
  const last = message.trim().at(-1);
  return last === undefined || '.!?…'.includes(last) ? '' : '.';
}

/** The error as a screen reader reads it after the field's label. */
export function errorAsRead(message: string): string {
  return `${FIELD_ERROR_PREFIX}${message.trim()}${closingStop(message)}`;
}
