import { parsePpsNumber } from '../../../contracts/pps-number.js';

/**
 * The written forms of the values the AI guard refuses (provider-guard.rules.ts), read back to the values they
 * stand for: a PPS number with a dash or a space in it, full-width digits, a name without its
 * fada or written surname first, a date as "March 3, 1980" or "19800303", a salary as "45 000"
 * (docs/decisions/0080-ai-guard-written-forms.md). Detection by the exact shape of a token let
 * every other way of writing the same value through.
 *
 * Linear time, and no regular expression with a quantifier over more than one short word: the
 * text is walked character by character, and each rule reads a bounded window around where it
 * stands.
 */

/** Apostrophes people and word processors type, read as the ASCII one. */
const APOSTROPHES = new Set(['\u2019', '\u2018', '\u02bc', '\u02b9', '\u2032', '\u0060', '\u02bb']);
/** Hyphens and dashes, read as the ASCII hyphen-minus. */
const DASHES = new Set(['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212']);
/** Characters that show nothing, so that "1234\u200b567T" is not a way round the rules. */
const INVISIBLE = new Set([
  '\u00ad',
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2060',
  '\u2061',
  '\u2062',
  '\u2063',
  '\u2064',
  '\ufeff',
]);
const LINE_BREAKS = new Set(['\u2028', '\u2029']);

/**
 * The text as the rules read it: NFKC (full-width and other compatibility forms become the
 * ASCII they look like: `１２３` is 123, `＠` is @), apostrophes and dashes folded to ASCII,
 * invisible characters dropped.
 */
export function foldText(text: string): string {
  const compatible = text.normalize('NFKC');
  let folded = '';
  let copied = 0;
  for (let index = 0; index < compatible.length; index += 1) {
    const character = compatible[index] as string;
    let replacement: string;
    if (APOSTROPHES.has(character)) replacement = "'";
    else if (DASHES.has(character)) replacement = '-';
    else if (INVISIBLE.has(character)) replacement = '';
    else if (LINE_BREAKS.has(character)) replacement = '\n';
    else continue;
    folded += compatible.slice(copied, index) + replacement;
    copied = index + 1;
  }
  return folded + compatible.slice(copied);
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;

const isAsciiDigit = (character: string) => character >= '0' && character <= '9';
const isAsciiLetter = (character: string) =>
  (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z');
const isAsciiAlnum = (character: string) => isAsciiDigit(character) || isAsciiLetter(character);

function isWordCharacter(character: string): boolean {
  if (character.charCodeAt(0) < 128) return isAsciiAlnum(character);
  return LETTER_OR_DIGIT.test(character);
}

/**
 * The words of folded text, lower case and without accents (Seán is sean), cut at everything
 * that is not a letter or a digit: "Kelly's" is kelly and s, "O'Brien" is o and brien.
 */
export function plainWords(folded: string): string[] {
  const decomposed = folded.normalize('NFD');
  const words: string[] = [];
  let word = '';
  for (let index = 0; index < decomposed.length; index += 1) {
    const character = decomposed[index] as string;
    if (character.charCodeAt(0) >= 128 && MARK.test(character)) continue;
    if (isWordCharacter(character)) word += character;
    else if (word.length > 0) {
      words.push(word.toLowerCase());
      word = '';
    }
  }
  if (word.length > 0) words.push(word.toLowerCase());
  return words;
}

/** A name as the rules compare it: its plain words run together ("O'Brien", "O Brien": obrien). */
export const nameKey = (name: string): string => plainWords(foldText(name)).join('');

/** How many words a surname may run to ("de la Cruz y Ortega" is the odd one past it). */
const LONGEST_NAME_WORDS = 4;

/** Every run of one to four consecutive words, run together: what nameKey can be compared with. */
export function wordKeys(words: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (let start = 0; start < words.length; start += 1) {
    let key = '';
    for (let end = start; end < Math.min(words.length, start + LONGEST_NAME_WORDS); end += 1) {
      key += words[end];
      keys.add(key);
    }
  }
  return keys;
}

/**
 * Whether the text's keys hold the full name: each of its words, in any order ("Kelly, Seán",
 * "Sean Kelly").
 */
export function matchesName(keys: ReadonlySet<string>, name: string): boolean {
  const words = plainWords(foldText(name));
  return words.length > 0 && words.every((word) => keys.has(word));
}

/**
 * Whether the text's keys hold the surname standing alone. One of fewer than three letters
 * ("Ó", "Ng") is also a word of everyday text, so it counts only within the full name.
 */
export function matchesFamilyName(keys: ReadonlySet<string>, familyName: string): boolean {
  const key = nameKey(familyName);
  return key.length >= 3 && keys.has(key);
}

/** A number as written: groups of digits, each pair of groups one separator apart. */
export interface DigitRun {
  groups: string[];
  separators: string[];
  /** Just past the last digit. */
  end: number;
}

/** What people write inside a number: "123 4567", "45,000", "1980/03/03", "03.03.1980". */
const RUN_SEPARATORS = new Set([' ', '-', '.', '/', ',', ':', "'", '_']);

/** The numbers of folded text, each read across single separators between its digits. */
export function digitRuns(folded: string): DigitRun[] {
  const runs: DigitRun[] = [];
  let index = 0;
  while (index < folded.length) {
    if (!isAsciiDigit(folded[index] as string)) {
      index += 1;
      continue;
    }
    const run: DigitRun = { groups: [], separators: [], end: index };
    let group = '';
    for (;;) {
      while (index < folded.length && isAsciiDigit(folded[index] as string)) {
        group += folded[index];
        index += 1;
      }
      run.groups.push(group);
      group = '';
      const separator = folded[index] ?? '';
      if (RUN_SEPARATORS.has(separator) && isAsciiDigit(folded[index + 1] ?? '')) {
        run.separators.push(separator);
        index += 1;
        continue;
      }
      break;
    }
    run.end = index;
    runs.push(run);
  }
  return runs;
}

/** What may stand between a PPS number's digits and its letter: "1234567-T", "1234567 T". */
const PPS_GAP = new Set([' ', '-', '.', '/', ':', '_']);

/**
 * Whether folded text holds a PPS number whose check letter holds: seven digits (the last
 * groups of a number, so "2024 1234567T" counts and "87 1234567T" too), at most one separator,
 * the check letter and an optional second letter, and no letter or digit after.
 */
export function hasPpsNumber(folded: string, runs: readonly DigitRun[]): boolean {
  for (const run of runs) {
    let digits = '';
    for (let group = run.groups.length - 1; group >= 0 && digits.length < 7; group -= 1) {
      digits = run.groups[group] + digits;
    }
    if (digits.length !== 7) continue;
    let at = run.end;
    if (PPS_GAP.has(folded[at] ?? '')) at += 1;
    const first = folded[at] ?? '';
    if (!isAsciiLetter(first)) continue;
    at += 1;
    const after = folded[at] ?? '';
    if (!isAsciiAlnum(after) && parsePpsNumber(digits + first)) return true;
    const second = isAsciiLetter(after)
      ? at
      : after === ' ' && isAsciiLetter(folded[at + 1] ?? '')
        ? at + 1
        : -1;
    if (
      second >= 0 &&
      !isAsciiAlnum(folded[second + 1] ?? '') &&
      parsePpsNumber(digits + first + folded[second])
    ) {
      return true;
    }
  }
  return false;
}

/** The length of an IBAN in each SEPA country (ISO 13616 registry). */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** ISO 7064 MOD 97-10, as ISO 13616 checks an IBAN: the country and check digits moved last. */
function ibanChecks(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of moved) {
    const value = isAsciiDigit(character)
      ? character.charCodeAt(0) - 48
      : character.charCodeAt(0) - 55;
    remainder = (value < 10 ? remainder * 10 + value : remainder * 100 + value) % 97;
  }
  return remainder === 1;
}

/**
 * Whether folded text holds an IBAN whose check digits hold, written whole or in groups
 * ("IE29 AIBK 9311 5212 3456 78", with spaces or hyphens), of its country's length, ending
 * where a word ends.
 */
export function hasIban(folded: string): boolean {
  for (let start = 0; start + 4 <= folded.length; start += 1) {
    const country = folded.slice(start, start + 2).toUpperCase();
    const length = IBAN_LENGTHS[country];
    if (
      length === undefined ||
      !isAsciiDigit(folded[start + 2] as string) ||
      !isAsciiDigit(folded[start + 3] as string) ||
      (start > 0 && isAsciiAlnum(folded[start - 1] as string))
    ) {
      continue;
    }
    let iban = '';
    let at = start;
    while (at < folded.length && iban.length < length) {
      const character = folded[at] as string;
      if (isAsciiAlnum(character)) {
        iban += character.toUpperCase();
        at += 1;
      } else if ((character === ' ' || character === '-') && isAsciiAlnum(folded[at + 1] ?? '')) {
        at += 1;
      } else break;
    }
    if (iban.length === length && !isAsciiAlnum(folded[at] ?? '') && ibanChecks(iban)) return true;
  }
  return false;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The date as YYYY-MM-DD when it is one, for a year between 1900 and 2099. */
function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const MONTHS = new Map<string, number>([
  ['january', 1],
  ['jan', 1],
  ['february', 2],
  ['feb', 2],
  ['march', 3],
  ['mar', 3],
  ['april', 4],
  ['apr', 4],
  ['may', 5],
  ['june', 6],
  ['jun', 6],
  ['july', 7],
  ['jul', 7],
  ['august', 8],
  ['aug', 8],
  ['september', 9],
  ['sept', 9],
  ['sep', 9],
  ['october', 10],
  ['oct', 10],
  ['november', 11],
  ['nov', 11],
  ['december', 12],
  ['dec', 12],
]);
const DAY_WORD = /^(\d{1,2})(?:st|nd|rd|th)?$/;
const TWO_OR_FOUR_DIGITS = /^(?:\d{2}|\d{4})$/;

/** Years as written: 1980, or 80 (1980 or 2080, both kept: either may be the one meant). */
const yearsOf = (written: string): number[] =>
  written.length === 4 ? [Number(written)] : [1900 + Number(written), 2000 + Number(written)];

/**
 * The dates written in folded text, as YYYY-MM-DD: in figures with any separator (1980-03-03,
 * 1980/03/03, 03.03.1980, 3/3/80) or none (19800303, 03031980), day first or month first; and in
 * words, the day before or after the month ("3rd of March 1980", "March 3, 1980", "Mar 3 80").
 * Every reading is kept: a list of candidates, compared with members' dates of birth.
 */
export function datesIn(runs: readonly DigitRun[], words: readonly string[]): string[] {
  const dates = new Set<string>();
  const add = (year: number, month: number, day: number) => {
    const date = isoDate(year, month, day);
    if (date) dates.add(date);
  };
  const compact = (digits: string) => {
    const at = (from: number, to: number) => Number(digits.slice(from, to));
    add(at(0, 4), at(4, 6), at(6, 8));
    add(at(4, 8), at(2, 4), at(0, 2));
    add(at(4, 8), at(0, 2), at(2, 4));
  };
  for (const run of runs) {
    const groups = run.groups;
    for (let index = 0; index + 3 <= groups.length; index += 1) {
      const [a = '', b = '', c = ''] = groups.slice(index, index + 3);
      if (a.length === 4 && b.length <= 2 && c.length <= 2) add(Number(a), Number(b), Number(c));
      if (a.length <= 2 && b.length <= 2 && (c.length === 4 || c.length === 2)) {
        for (const year of yearsOf(c)) {
          add(year, Number(b), Number(a));
          add(year, Number(a), Number(b));
        }
      }
    }
    for (const group of groups) if (group.length === 8) compact(group);
    if (groups.length > 1) {
      const digits = groups.join('');
      if (digits.length === 8) compact(digits);
    }
  }
  words.forEach((word, at) => {
    const month = MONTHS.get(word);
    if (month === undefined) return;
    const days: number[] = [];
    for (let index = Math.max(0, at - 3); index <= at + 2 && index < words.length; index += 1) {
      const day = index === at ? null : DAY_WORD.exec((words[index] as string).slice(0, 5));
      if (day && (words[index] as string).length <= 4) days.push(Number(day[1]));
    }
    for (let index = Math.max(0, at - 2); index <= at + 4 && index < words.length; index += 1) {
      const written = words[index] as string;
      if (index === at || written.length > 4 || !TWO_OR_FOUR_DIGITS.test(written)) continue;
      for (const year of yearsOf(written)) for (const day of days) add(year, month, day);
    }
  });
  return [...dates];
}

/** The most digits a sum of money is read from: a salary is not a billion euro. */
const LONGEST_SUM = 9;

/**
 * The sums of money written in folded text, in whole cents, with every reading kept: a number
 * in groups (45,000 or 45 000 or 45.000) as whole euro, the last group of two digits after a
 * point or a comma as cents (45,000.00 and 45.000,00), and thousands written "45k" or "4.5k".
 * Up to four consecutive groups are read together, so "in 2024 45,000" still holds 45,000.
 */
export function amountsInRuns(folded: string, runs: readonly DigitRun[]): number[] {
  const amounts = new Set<number>();
  for (const run of runs) {
    const { groups, separators } = run;
    for (let start = 0; start < groups.length; start += 1) {
      let digits = '';
      for (let end = start; end < Math.min(groups.length, start + 4); end += 1) {
        const group = groups[end] as string;
        const separator = separators[end - 1];
        if (
          end > start &&
          group.length === 2 &&
          (separator === '.' || separator === ',') &&
          digits.length <= LONGEST_SUM
        ) {
          amounts.add(Number(digits) * 100 + Number(group));
        }
        digits += group;
        if (digits.length <= LONGEST_SUM) amounts.add(Number(digits) * 100);
      }
    }
    let at = run.end;
    if (folded[at] === ' ') at += 1;
    if ((folded[at] === 'k' || folded[at] === 'K') && !isAsciiLetter(folded[at + 1] ?? '')) {
      const last = groups.at(-1) as string;
      const before = groups.at(-2);
      const separator = separators.at(-1);
      if (last.length <= 6) amounts.add(Number(last) * 100_000);
      if (before !== undefined && before.length <= 6 && (separator === '.' || separator === ',')) {
        amounts.add(Math.round(Number(`${before}.${last}`) * 100_000));
      }
    }
  }
  return [...amounts];
}

/** What a text holds that a member's data could equal, for the look-up of whom it names. */
export interface WrittenValues {
  /** Runs of one to four words, run together (wordKeys). */
  keys: Set<string>;
  dates: string[];
  amounts: number[];
}

export function writtenValues(text: string): WrittenValues {
  const folded = foldText(text);
  const runs = digitRuns(folded);
  const words = plainWords(folded);
  return {
    keys: wordKeys(words),
    dates: datesIn(runs, words),
    amounts: amountsInRuns(folded, runs),
  };
}
