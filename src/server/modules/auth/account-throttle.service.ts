import { createHash } from 'node:crypto';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';

/** Sign-in attempts per account within the window before each further one is slowed down. */
export const FREE_ATTEMPTS = 5;
export const ATTEMPT_WINDOW_MS = 15 * 60_000;
const STEP_MS = 1_000;
const MAX_DELAY_MS = 10_000;

/**
 * Slows guessing at one account from many addresses, which per-IP limits cannot see: every
 * attempt beyond the allowance waits a second longer, up to ten. Counters live in the shared
 * rate-limit store, keyed on a hash of the e-mail address as typed (never the address itself),
 * for known and unknown addresses alike, so the delay reveals nothing about whether an account
 * exists. A genuine user rarely signs in five times in fifteen minutes.
 */
export function createAccountThrottle(store: RateLimitStore, pause: (ms: number) => Promise<void>) {
  return {
    async beforeAttempt(email: string): Promise<void> {
      const key = `signin-account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
      const { count } = await store.hit(key, ATTEMPT_WINDOW_MS);
      const over = count - FREE_ATTEMPTS;
      if (over > 0) await pause(Math.min(MAX_DELAY_MS, over * STEP_MS));
    },
  };
}

export type AccountThrottle = ReturnType<typeof createAccountThrottle>;
