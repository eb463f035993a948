import { randomBytes } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Characters after the leading letter: 24 in all, the length @paralleldrive/cuid2 gives. */
const TAIL_LENGTH = 23;
/** Bytes at or above these are drawn again, so that every letter and digit is equally likely. */
const LETTER_LIMIT = 256 - (256 % LETTERS.length);
const DIGIT_LIMIT = 256 - (256 % DIGITS.length);
const POOL_BYTES = 64 * 1024;

/**
 * Ids for imported rows, in the shape of CUID2 (docs/api.md, "Requests and answers"): a lower-case
 * letter then 23 lower-case letters and digits, which `isCuid` accepts and every route that takes
 * an id parses.
 *
 * Why not `createId()`: @paralleldrive/cuid2 derives each id through SHA-3 and bignumber.js, which
 * measured about 0.5 ms per id here; a file of a million contributions would spend eight minutes
 * on ids alone. These come straight from the operating system's CSPRNG, drawn in 64 KiB batches:
 * 23 base-36 characters carry 118 bits, as collision-resistant and unguessable as a random UUID.
 */
export function createRowIdSource(): () => string {
  let pool = randomBytes(0);
  let position = 0;
  const nextByte = (): number => {
    if (position === pool.length) {
      pool = randomBytes(POOL_BYTES);
      position = 0;
    }
    return pool[position++] as number;
  };
  const draw = (alphabet: string, limit: number): string => {
    for (;;) {
      const byte = nextByte();
      if (byte < limit) return alphabet[byte % alphabet.length] as string;
    }
  };
  return () => {
    let id = draw(LETTERS, LETTER_LIMIT);
    for (let index = 0; index < TAIL_LENGTH; index += 1) id += draw(DIGITS, DIGIT_LIMIT);
    return id;
  };
}
