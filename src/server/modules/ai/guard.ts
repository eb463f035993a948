import { parsePpsNumber } from '../../../contracts/pps-number.js';

/**
 * The one check in front of every request to the AI provider (docs/decisions/0066-ai-provider-guard-and-chat.md;
 * service-spec §4 rule 7: PPS numbers are never sent). It reads
 * the request body the SDK is about to send and refuses it when it carries:
 * - a PPS number (seven digits and a check letter that holds: contracts/pps-number.ts);
 * - an e-mail address;
 * - a name, date of birth or salary of one of the tenant's members (the request's denylist);
 * - a salary-like figure tied to a person (an amount beside a pay word and a person);
 * - a token or secret: bearer tokens, JWTs, well-known API key shapes, long hex keys, and the
 *   service's own secrets and the provider key in use.
 *
 * Linear time: the body's strings are cut into tokens in one pass, and every pattern is anchored
 * to a single token with no nested or overlapping quantifiers, so each token is read a bounded
 * number of times. What matched is never returned or logged: only which rule did.
 */

export type GuardReason =
  | 'pps_number'
  | 'email_address'
  | 'member_name'
  | 'member_date_of_birth'
  | 'member_salary'
  | 'salary_figure'
  | 'secret';

/** What one request must not carry besides the general patterns: the tenant's members' data. */
export interface Denylist {
  /** Full names, lower case, as "first last". */
  names: readonly string[];
  /** Dates of birth, YYYY-MM-DD. */
  datesOfBirth: readonly string[];
  /** Salaries in whole cents. */
  salaryCents: readonly number[];
}

export const EMPTY_DENYLIST: Denylist = { names: [], datesOfBirth: [], salaryCents: [] };

export class OutgoingRefusedError extends Error {
  override name = 'OutgoingRefusedError';
  constructor(readonly reasons: GuardReason[]) {
    super(`outgoing AI request refused: ${reasons.join(', ')}`);
  }
}

/** Characters that never belong to anything the rules look for: where tokens are cut. */
const SEPARATORS = new Set(' \t\r\n\f\v"\'`<>()[]{};!?*|\\'.split(''));
/**
 * Trailing punctuation is not part of a token (an address at the end of a sentence). A comma
 * inside one is: it groups the thousands of a sum of money.
 */
const TRIM_END = new Set(['.', ':', ',']);

const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
const JWT = /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const KEY_SHAPES = [
  /^(?:sk|pk|rk)[-_][A-Za-z0-9_-]{16,}$/,
  /^AKIA[0-9A-Z]{16}$/,
  /^gh[pousr]_[A-Za-z0-9]{30,}$/,
  /^xox[abprs]-[A-Za-z0-9-]{10,}$/,
  /^[0-9A-Fa-f]{40,}$/,
];
/**
 * No pattern with a quantifier runs on more than this (as test/http/linear-patterns.test.ts holds
 * the API's fields to): an unbroken run longer than any word, address or number is refused as a
 * possible key or token instead, which is what such runs are.
 */
const LONGEST_TOKEN = 1_000;
const SEVEN_DIGITS = /^\d{7}$/;
const ONE_OR_TWO_LETTERS = /^[A-Za-z]{1,2}$/;
/** €45,000, 45000.00, EUR45k, €4.5k: a sum of money as written in a question or a letter. */
const MONEY = /^(?:€|eur)?(\d{1,3}(?:,\d{3})+|\d{4,9}|\d{1,4}(?:\.\d)?k)(?:\.(\d{2}))?$/i;
const PAY_WORDS = new Set([
  'salary',
  'salaries',
  'earns',
  'earning',
  'earnings',
  'wage',
  'wages',
  'paid',
  'pay',
  'income',
]);
const PERSON_WORDS = new Set(['he', 'she', 'his', 'her', 'my', 'i', "i'm", 'earns', 'employee']);
/** How many tokens either side of an amount a pay word and a person are looked for. */
const WINDOW = 6;

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SLASH_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const DAY = /^(\d{1,2})(?:st|nd|rd|th)?$/i;
const YEAR = /^\d{4}$/;

/** The strings of a JSON body (the messages the provider gets), or the body itself. */
function stringsOf(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [body];
  }
  const out: string[] = [];
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return out;
}

/** One pass: the text cut at separators, trailing sentence punctuation dropped. */
export function tokensOf(text: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  const push = (end: number) => {
    let last = end;
    while (last > start && TRIM_END.has(text[last - 1] as string)) last -= 1;
    if (last > start) tokens.push(text.slice(start, last));
  };
  for (let index = 0; index < text.length; index += 1) {
    if (SEPARATORS.has(text[index] as string)) {
      if (start >= 0) push(index);
      start = -1;
    } else if (start < 0) start = index;
  }
  if (start >= 0) push(text.length);
  return tokens;
}

const pad = (value: string) => value.padStart(2, '0');

/** The dates written in the tokens, as YYYY-MM-DD (ISO, day/month/year, or "3 March 1980"). */
export function datesIn(tokens: readonly string[]): string[] {
  const dates: string[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    const iso = ISO_DATE.exec(token);
    if (iso) dates.push(token);
    const slash = SLASH_DATE.exec(token);
    if (slash) dates.push(`${slash[3]}-${pad(slash[2] as string)}-${pad(slash[1] as string)}`);
    const month = MONTHS.indexOf(token.toLowerCase());
    if (month >= 0) {
      const day = DAY.exec(tokens[index - 1] ?? '');
      const year = tokens[index + 1] ?? '';
      if (day && YEAR.test(year))
        dates.push(`${year}-${pad(String(month + 1))}-${pad(day[1] as string)}`);
    }
  }
  return dates;
}

/** The sums of money in the tokens, in whole cents, with where each stands. */
export function amountsIn(tokens: readonly string[]): Array<{ index: number; cents: number }> {
  const amounts: Array<{ index: number; cents: number }> = [];
  tokens.forEach((token, index) => {
    const match = MONEY.exec(token);
    if (!match) return;
    const figure = (match[1] as string).replace(/,/g, '').toLowerCase();
    const euro = figure.endsWith('k') ? Number(figure.slice(0, -1)) * 1000 : Number(figure);
    amounts.push({ index, cents: Math.round(euro * 100) + Number(match[2] ?? 0) });
  });
  return amounts;
}

function hasPpsNumber(tokens: readonly string[]): boolean {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    if (token.length >= 8 && token.length <= 9 && parsePpsNumber(token)) return true;
    // Written with a space before the letters: "1234567 T".
    const next = tokens[index + 1];
    if (SEVEN_DIGITS.test(token) && next && ONE_OR_TWO_LETTERS.test(next)) {
      if (parsePpsNumber(token + next)) return true;
    }
  }
  return false;
}

function hasSecret(tokens: readonly string[], secrets: readonly string[], whole: string): boolean {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    if (JWT.test(token) || KEY_SHAPES.some((shape) => shape.test(token))) return true;
    if (token.toLowerCase() === 'bearer' && (tokens[index + 1]?.length ?? 0) >= 16) return true;
  }
  return secrets.some((secret) => secret.length >= 8 && whole.includes(secret));
}

function hasPersonSalary(lowered: readonly string[]): boolean {
  for (const { index } of amountsIn(lowered)) {
    const around = lowered.slice(Math.max(0, index - WINDOW), index + WINDOW + 1);
    if (around.some((word) => PAY_WORDS.has(word)) && around.some((word) => PERSON_WORDS.has(word)))
      return true;
  }
  return false;
}

/**
 * Why `body` must not be sent, or an empty list. `secrets` are values that must never leave:
 * the service's own secrets and the provider key in use (which belongs in a header only).
 */
export function inspectOutgoing(
  body: string,
  denylist: Denylist,
  secrets: readonly string[],
): GuardReason[] {
  const reasons = new Set<GuardReason>();
  for (const text of stringsOf(body)) {
    const all = tokensOf(text);
    if (all.some((token) => token.length > LONGEST_TOKEN)) reasons.add('secret');
    const tokens = all.filter((token) => token.length <= LONGEST_TOKEN);
    const lowered = tokens.map((token) => token.toLowerCase());
    if (hasPpsNumber(tokens)) reasons.add('pps_number');
    if (tokens.some((token) => token.includes('@') && EMAIL.test(token)))
      reasons.add('email_address');
    if (hasSecret(tokens, secrets, text)) reasons.add('secret');
    if (hasPersonSalary(lowered)) reasons.add('salary_figure');
    if (denylist.names.length > 0) {
      const spaced = ` ${lowered.join(' ')} `;
      if (denylist.names.some((name) => spaced.includes(` ${name} `))) reasons.add('member_name');
    }
    if (denylist.datesOfBirth.length > 0) {
      const dates = new Set(datesIn(tokens));
      if (denylist.datesOfBirth.some((date) => dates.has(date)))
        reasons.add('member_date_of_birth');
    }
    if (denylist.salaryCents.length > 0) {
      const salaries = new Set(denylist.salaryCents);
      if (amountsIn(lowered).some(({ cents }) => salaries.has(cents))) reasons.add('member_salary');
    }
  }
  return [...reasons];
}
