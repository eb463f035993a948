import { z } from 'zod';
import { FIELD_MESSAGES } from './plain-english.js';
import './text.js';

/** service-spec §8 and decisions.md §2: the length rule of every new password. */
export const PASSWORD_MIN_LENGTH = 12;
/** Long enough for any passphrase or manager-generated secret; bounds the work one request can ask for. */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * The length of a new password, counted in characters (code points), as people count them:
 * an emoji is one character, not two UTF-16 units. Whether it is too common only the server
 * knows (its dictionary is large); that answer reaches the form under the same field.
 */
export function passwordLengthProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return FIELD_MESSAGES.passwordTooShort(PASSWORD_MIN_LENGTH);
  if (length > PASSWORD_MAX_LENGTH) return FIELD_MESSAGES.passwordTooLong(PASSWORD_MAX_LENGTH);
  return null;
}

/** A new password as a request field: its length checked here, its commonness by the service. */
export const newPassword = z.string().superRefine((value, context) => {
  const problem = passwordLengthProblem(value);
  if (problem !== null) context.addIssue({ code: 'custom', message: problem });
});
