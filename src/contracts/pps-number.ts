/**
 * The PPS number rule (docs/decisions/0028-pps-numbers.md), kept in this one place: seven digits, a
 * check letter, and an optional second letter. Input may carry spaces and lower case; it is
 * normalised first.
 */
const SHAPE = /^(\d{7})([A-W])([ABHWTX]?)$/;
/** W stands for 0, A for 1 … V for 22. */
const CHECK_ALPHABET = 'WABCDEFGHIJKLMNOPQRSTUV';
const DIGIT_WEIGHTS = [8, 7, 6, 5, 4, 3, 2];
/** Only these second letters count towards the check letter, with weight 9. */
const WEIGHTED_SECOND_LETTERS = 'ABH';

export function normalisePpsNumber(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** The normalised PPS number when `input` is one whose check letter holds; null otherwise. */
export function parsePpsNumber(input: string): string | null {
  const normalised = normalisePpsNumber(input);
  const match = SHAPE.exec(normalised);
  if (!match) return null;
  const [, digits = '', checkLetter, secondLetter = ''] = match;
  let sum = 0;
  for (let index = 0; index < DIGIT_WEIGHTS.length; index += 1) {
    sum += Number(digits[index]) * (DIGIT_WEIGHTS[index] ?? 0);
  }
  if (secondLetter !== '' && WEIGHTED_SECOND_LETTERS.includes(secondLetter)) {
    sum += 9 * CHECK_ALPHABET.indexOf(secondLetter);
  }
  return CHECK_ALPHABET[sum % 23] === checkLetter ? normalised : null;
}
