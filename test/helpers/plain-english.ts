import { expect } from 'vitest';

/**
 * The words a validator uses of itself, which a person filling in a form should never read
 * (docs/decisions/0052-form-errors-in-plain-english.md): Zod's default messages ("Too small: expected string to have >=1
 * characters", "Invalid option: expected one of …", "Unrecognized key"), type names and
 * comparison signs.
 */
const VALIDATOR_TEXT =
  /\b(expected|received|undefined|NaN)\b|Invalid (input|option|string|type|element|key)|Too (small|big)|[<>]=|Unrecognized key|\bregex\b|\bZod/i;

/**
 * The one sentence that quotes the request back: an unknown field is named as the client sent
 * it, so whatever follows the colon is the client's text (a generated key such as "<=" or
 * "expected"), not ours, and is not judged.
 */
const ECHOES_FIELD_NAMES = /^(Not a field this accepts): .*$/s;

/** A sentence a person can read under a form field: begins with a capital, no validator words. */
export function expectPlainEnglish(message: unknown): void {
  expect(typeof message, String(message)).toBe('string');
  const ours = (message as string).replace(ECHOES_FIELD_NAMES, '$1');
  expect(ours, 'a sentence begins with a capital letter').toMatch(/^[A-Z]/);
  expect(ours, 'no validator words').not.toMatch(VALIDATOR_TEXT);
}
