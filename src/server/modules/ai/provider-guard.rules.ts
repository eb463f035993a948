import { emailAddressesIn } from '../../../contracts/telemetry-text.js';
import {
  amountsInRuns,
  datesIn,
  digitRuns,
  foldText,
  hasIban,
  hasPpsNumber,
  matchesName,
  nameKey,
  plainWords,
  wordKeys,
} from './written-forms.rules.js';

/**
 * The one check in front of every request to the AI provider
 * (docs/decisions/0066-ai-provider-guard-and-chat.md;
 * docs/decisions/0134-the-contract-in-this-repository.md, "Personal data and secrets stay inside").
 * It reads the request body the SDK is about to send and refuses it when it carries:
 * - a PPS number (seven digits and a check letter that holds: contracts/pps-number.ts);
 * - an e-mail address (contracts/telemetry-text.ts finds them, as it does for telemetry);
 * - an IBAN whose check digits hold;
 * - a name, date of birth or salary of one of the tenant's members (the request's denylist);
 * - a salary-like figure tied to a person (an amount beside a pay word and a person);
 * - a token or secret: bearer tokens, JWTs, well-known API key shapes, long hex keys, and the
 *   service's own secrets and the provider key in use.
 *
 * Every rule reads the text as written-forms.rules.ts folds it first (NFKC, apostrophes, dashes,
 * invisible characters, accents), and reads numbers across the separators people write inside
 * them, so `1234567-T`, `１２３４５６７Ｔ`, `Kelly, Seán` and `March 3, 1980` are the values they
 * stand for (docs/decisions/0080-ai-guard-written-forms.md).
 *
 * Linear time: the body's strings are cut into tokens and runs in one pass each, and every
 * pattern is anchored to a single short token with no nested or overlapping quantifiers, so each
 * character is read a bounded number of times. What matched is never returned or logged: only
 * which rule did.
 */

export type GuardReason =
  | 'pps_number'
  | 'email_address'
  | 'iban'
  | 'member_name'
  | 'member_date_of_birth'
  | 'member_salary'
  | 'salary_figure'
  | 'secret';

/** What one request must not carry besides the general patterns: the tenant's members' data. */
export interface Denylist {
  /** Full names as stored ("Seán O'Kelly"): refused with all their words present, in any order. */
  names: readonly string[];
  /** Surnames as stored: refused standing alone ("Does Doyle…"), see written-forms.rules.ts. */
  familyNames?: readonly string[];
  /** Dates of birth, YYYY-MM-DD. */
  datesOfBirth: readonly string[];
  /** Salaries in whole cents. */
  salaryCents: readonly number[];
}

export const EMPTY_DENYLIST: Denylist = {
  names: [],
  familyNames: [],
  datesOfBirth: [],
  salaryCents: [],
};

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

/** The denylist made ready once for every string of a body: names as the rules compare them. */
function preparedDenylist(denylist: Denylist) {
  return {
    names: denylist.names,
    familyKeys: (denylist.familyNames ?? []).map(nameKey).filter((key) => key.length >= 3),
    datesOfBirth: new Set(denylist.datesOfBirth),
    salaryCents: new Set(denylist.salaryCents),
  };
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
  const denied = preparedDenylist(denylist);
  for (const text of stringsOf(body)) {
    const folded = foldText(text);
    const all = tokensOf(folded);
    if (all.some((token) => token.length > LONGEST_TOKEN)) reasons.add('secret');
    const tokens = all.filter((token) => token.length <= LONGEST_TOKEN);
    const lowered = tokens.map((token) => token.toLowerCase());
    const runs = digitRuns(folded);
    if (hasPpsNumber(folded, runs)) reasons.add('pps_number');
    // An address holds no separator of tokensOf, so each is found whole within one token.
    if (tokens.some((token) => token.includes('@') && emailAddressesIn(token).length > 0))
      reasons.add('email_address');
    if (hasIban(folded)) reasons.add('iban');
    if (hasSecret(tokens, secrets, text) || hasSecret(tokens, secrets, folded))
      reasons.add('secret');
    if (hasPersonSalary(lowered)) reasons.add('salary_figure');
    const words = denied.names.length + denied.familyKeys.length > 0 ? plainWords(folded) : [];
    if (words.length > 0) {
      const keys = wordKeys(words);
      if (
        denied.familyKeys.some((key) => keys.has(key)) ||
        denied.names.some((name) => matchesName(keys, name))
      ) {
        reasons.add('member_name');
      }
    }
    if (denied.datesOfBirth.size > 0) {
      const dates = datesIn(runs, words.length > 0 ? words : plainWords(folded));
      if (dates.some((date) => denied.datesOfBirth.has(date))) reasons.add('member_date_of_birth');
    }
    if (denied.salaryCents.size > 0) {
      const amounts = [
        ...amountsInRuns(folded, runs),
        ...amountsIn(lowered).map((amount) => amount.cents),
      ];
      if (amounts.some((cents) => denied.salaryCents.has(cents))) reasons.add('member_salary');
    }
  }
  return [...reasons];
}
