import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import bcrypt from 'bcrypt';
import { passwordProblem as sharedPasswordProblem } from '../../../contracts/passwords.js';
import { ValidationError } from '../../platform/errors.js';
import { isBreachedPassword } from './breached-passwords.rules.js';

/** Hashes a new password at the configured cost: what services that set passwords are given. */
export type HashPassword = (password: string) => Promise<string>;
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contracts/passwords.js';

/**
 * bcrypt reads only the first 72 bytes. Every password is first reduced to the base64 of its
 * SHA-256 (44 ASCII characters, no NUL byte), so all of a long passphrase counts and two
 * passwords sharing their first 72 bytes still differ.
 */
function preHash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}

/** A new password the policy refuses, as the 400 its field shows (the reason under `path`). */
export function passwordPolicyRefusal(path: string, problem: string): ValidationError {
  return new ValidationError([{ path, code: 'password_policy', message: problem }]);
}

/**
 * The reason a new password is refused, or null when it is acceptable: the shared rule
 * (src/contracts/passwords.ts) with the breached-password list, which only the service holds.
 */
export function passwordProblem(password: string): Promise<string | null> {
  return sharedPasswordProblem(password, { isBreached: isBreachedPassword });
}

/**
 * How many bcrypt operations run at once. bcrypt's async API works on the libuv thread pool (4
 * threads unless UV_THREADPOOL_SIZE says otherwise), off the event loop. More operations than
 * cores only adds threads competing with the event loop for CPU, which makes every other request
 * wait longer without signing anyone in faster; and one pool thread always stays free for file
 * and DNS work. The rest wait here, in order, costing nothing.
 */
const BCRYPT_SLOTS = Math.max(1, Math.min(availableParallelism(), 3));
let bcryptRunning = 0;
const bcryptWaiting: Array<() => void> = [];

async function withBcryptSlot<T>(work: () => Promise<T>): Promise<T> {
  if (bcryptRunning >= BCRYPT_SLOTS) {
    await new Promise<void>((resolve) => bcryptWaiting.push(resolve));
  } else {
    bcryptRunning += 1;
  }
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line, or give it back.
    const next = bcryptWaiting.shift();
    if (next) next();
    else bcryptRunning -= 1;
  }
}

/** A hasher at `cost`; a hash keeps its cost, so verifying needs none (`verifyPassword`). */
export function passwordHasher(cost: number): HashPassword {
  return (password) => withBcryptSlot(() => bcrypt.hash(preHash(password), cost));
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return withBcryptSlot(() => bcrypt.compare(preHash(password), hash));
}

/**
 * A hash of nothing anyone knows, compared against when the e-mail is unknown, so that an
 * unknown e-mail takes as long as a wrong password.
 */
export function createDummyHash(cost: number): Promise<string> {
  return bcrypt.hash(preHash(`unknown-account-${Math.random()}`), cost);
}
