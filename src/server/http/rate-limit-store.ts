import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window closes. */
  resetInMs: number;
}

/**
 * Fixed-window counters: the first hit of a key opens a window of `windowMs`. The in-process
 * store answers at once rather than with a promise: every request hits it, and a promise per hit
 * is a measurable share of a health probe's cost. A store never fails a hit or a peek: the shared
 * one counts in this process while Redis cannot be reached (createRedisStore), so no caller needs
 * a fallback of its own and no limit fails open.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /**
   * The open window of a key without counting: null when it has none. For allowances spent only
   * by some requests (a wrong cron bearer) yet checked on all of them.
   */
  peek(key: string): WindowCount | null | Promise<WindowCount | null>;
  close(): Promise<void>;
}

/** One process's counters. Expired windows are dropped as the map is swept. */
export function createMemoryStore(now: () => Date): RateLimitStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let hitsSinceSweep = 0;
  const sweep = (at: number) => {
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
  };
  return {
    hit(key, windowMs) {
      const at = now().getTime();
      hitsSinceSweep += 1;
      if (hitsSinceSweep >= 10_000) {
        sweep(at);
        hitsSinceSweep = 0;
      }
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        window = { count: 0, endsAt: at + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, resetInMs: window.endsAt - at };
    },
    peek(key) {
      const at = now().getTime();
      const window = windows.get(key);
      return window && window.endsAt > at
        ? { count: window.count, resetInMs: window.endsAt - at }
        : null;
    },
    async close() {},
  };
}

/** Increments and, for a new window, sets its expiry, atomically: no key can be left without one. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

/** A key's count and time left, read together; nil when the key has no window open. */
const PEEK_SCRIPT = `
local count = redis.call('GET', KEYS[1])
if not count then return nil end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

/**
 * Counters in Redis, shared by every instance of the service, with `local` (this process's own)
 * standing in while Redis cannot be reached (docs/decisions/0019-rate-limits.md).
 * An outage then weakens every limit to one allowance per instance, never
 * to none: a sign-in guesser gets at most the limit times the number of instances, and each
 * request so counted is logged at error level.
 */
export function createRedisStore(
  redis: Redis,
  { local, logger }: { local: RateLimitStore; logger: Logger },
): RateLimitStore {
  return withLocalFallback(redisOnly(redis), local, logger);
}

function redisOnly(redis: Redis, prefix = 'pension-admin:rate:'): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, `${prefix}${key}`, windowMs)) as [
        number,
        number,
      ];
      return { count, resetInMs: ttl > 0 ? ttl : windowMs };
    },
    async peek(key) {
      const found = (await redis.eval(PEEK_SCRIPT, 1, `${prefix}${key}`)) as
        | [number, number]
        | null;
      if (!found) return null;
      const [count, ttl] = found;
      return ttl > 0 ? { count, resetInMs: ttl } : null;
    },
    async close() {
      // quit() waits for pending replies, but fails on a connection that never opened.
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Shared counters that fall back to this process's own while the shared store fails. */
function withLocalFallback(
  shared: RateLimitStore,
  local: RateLimitStore,
  logger: Logger,
): RateLimitStore {
  const fellBack = (error: unknown) =>
    logger.error({ err: error }, 'rate-limit store unavailable: counted by this instance alone');
  return {
    async hit(key, windowMs) {
      try {
        return await shared.hit(key, windowMs);
      } catch (error) {
        fellBack(error);
        return local.hit(key, windowMs);
      }
    },
    async peek(key) {
      try {
        return await shared.peek(key);
      } catch (error) {
        fellBack(error);
        return local.peek(key);
      }
    },
    async close() {
      await Promise.all([shared.close(), local.close()]);
    },
  };
}
