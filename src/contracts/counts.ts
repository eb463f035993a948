import { nounFor } from './plain-english.js';

/**
 * Counts in words, as a document written for a reader says them: "one document", "two
 * trustees", "no written policies", "1,204 employees"; never "1 document(s)". Up to ten in words,
 * larger counts in figures grouped as in Ireland. Which form of the noun a count takes is the one
 * rule of the pages' figures (`nounFor` in plain-english.ts).
 */

const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** A noun's two forms: `{ one: 'trustee', other: 'trustees' }`. */
export interface Noun {
  one: string;
  other: string;
}

/** The number alone, in words up to ten: `no`, `one` … `ten`, `11`, `1,204`. */
export function numberInWords(count: number): string {
  return Number.isInteger(count) && count >= 0 && count < WORDS.length
    ? (WORDS[count] as string)
    : count.toLocaleString('en-IE');
}

/** The count with its noun, singular for one: `one document`, `two documents`, `no documents`. */
export function countInWords(count: number, noun: Noun): string {
  return `${numberInWords(count)} ${nounFor(count, noun.one, noun.other)}`;
}

/** The same, to begin a sentence: `One document`, `No documents`, `12 documents`. */
export function countInWordsFirst(count: number, noun: Noun): string {
  const words = countInWords(count, noun);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `is` for one, `are` otherwise, to agree with a count. */
export function isOrAre(count: number): string {
  return count === 1 ? 'is' : 'are';
}
