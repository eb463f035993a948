import { z } from 'zod';
import { FIELD_MESSAGES } from './plain-english.js';
import './text.js';

/** The length rule of every new password (docs/decisions/0015-passwords-and-sign-in.md). */
export const PASSWORD_MIN_LENGTH = 12;
/** Long enough for any passphrase or manager-generated secret; bounds the work one request can ask for. */
export const PASSWORD_MAX_LENGTH = 1024;
/**
 * zxcvbn's score (0 to 4) a new password must reach: 3 means about 10^8 guesses or more, which a
 * repeat, a keyboard run, a sequence or a dictionary word with a digit or two never reaches
 * (docs/decisions/0108-passwords-guessable-and-breached.md).
 */
export const PASSWORD_MIN_SCORE = 3;

/** What every form that sets a password says under its field, in the words of the rule below. */
export const PASSWORD_RULE_TEXT = `At least ${PASSWORD_MIN_LENGTH} characters, not easy to guess: no repeats, runs or common passwords. A few unrelated words are easy to remember and hard to guess.`;

/**
 * The length of a new password, counted in characters (code points), as people count them:
 * an emoji is one character, not two UTF-16 units.
 */
export function passwordLengthProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return FIELD_MESSAGES.passwordTooShort(PASSWORD_MIN_LENGTH);
  if (length > PASSWORD_MAX_LENGTH) return FIELD_MESSAGES.passwordTooLong(PASSWORD_MAX_LENGTH);
  return null;
}

interface Estimator {
  check(password: string): { score: number };
}

/**
 * zxcvbn with its language-neutral dictionaries (common passwords, names, Wikipedia words) and
 * keyboard layouts, loaded on first use: only forms and routes that set a password need it, and
 * its dictionaries are large, for the browser's first page and for the server's idle memory alike.
 */
let estimator: Promise<Estimator> | null = null;
function loadEstimator(): Promise<Estimator> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory }, common]) =>
      new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs }),
  );
  return estimator;
}

export interface PasswordCheck {
  /**
   * Whether the password, case-folded, is on a list of breached passwords. The service's list is
   * too large to send to a browser, so the browser's check runs without it and the service's
   * answer to the form adds it.
   */
  isBreached?: (folded: string) => Promise<boolean>;
}

/**
 * The one rule of a new password, for the service and the browser alike: its length, then (where
 * the caller has the list) whether it is a known breached password, then how easily it is guessed.
 * Returns the sentence to show under the field, or null when the password is acceptable.
 */
export async function passwordProblem(
  password: string,
  { isBreached }: PasswordCheck = {},
): Promise<string | null> {
  const lengthProblem = passwordLengthProblem(password);
  if (lengthProblem !== null) return lengthProblem;
  if (isBreached && (await isBreached(password.toLowerCase()))) {
    return FIELD_MESSAGES.passwordTooCommon;
  }
  if ((await loadEstimator()).check(password).score < PASSWORD_MIN_SCORE) {
    return FIELD_MESSAGES.passwordTooGuessable;
  }
  return null;
}

/**
 * A new password as a request field: its length checked here; how guessable it is the service
 * checks with passwordProblem, which needs a dictionary too large to load for every request.
 */
export const newPassword = z.string().superRefine((value, context) => {
  const problem = passwordLengthProblem(value);
  if (problem !== null) context.addIssue({ code: 'custom', message: problem });
});

/**
 * bcrypt's cost in staging and production, at the least (docs/decisions/0015-passwords-and-sign-in.md):
 * the configuration refuses less there (PASSWORD_HASH_COST, docs/decisions/0151-password-hash-cost-setting.md).
 */
export const DEPLOYED_BCRYPT_COST = 12;
/** bcrypt's own lowest cost, which development and test may choose so that signing in is quick. */
export const LOWEST_BCRYPT_COST = 4;
