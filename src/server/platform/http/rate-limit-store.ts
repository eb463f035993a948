import { createRequire } from 'node:module';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window closes. */
  resetInMs: number;
}

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** A store of @fastify/rate-limit: fixed windows opened by a key's first hit. */
interface PluginStore extends FastifyRateLimitStore {
  read(key: string, answer: Answer, timeWindow: number, max: number): void;
}

/**
 * @fastify/rate-limit's own two stores (docs/decisions/0109-rate-limits-through-fastify-rate-limit.md):
 * the package ships them as files beside its entry point rather than as exports.
 */
const load = createRequire(import.meta.url);
const LocalStore = load('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache: number,
) => PluginStore;
const RedisStore = load('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  prefix: string,
) => PluginStore;

/**
 * Windows held in this process at most. The least recently counted go first, so a flood of new
 * addresses costs bounded memory; an address pushed out that way starts a fresh window.
 */
const LOCAL_WINDOWS = 100_000;

/**
 * Where every limit and throttle counts: the HTTP limits through @fastify/rate-limit
 * (`pluginStore`), and the allowances of sign-in, reset links, password changes, second factors
 * and bearer gates through `hit` and `peek`. A store never fails a hit or a peek: the shared one
 * counts in this process while Redis cannot be reached, so no caller needs a fallback of its own
 * and no limit fails open.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /**
   * The open window of a key without counting: null when it has none. For allowances spent only
   * by some requests (a failed sign-in, a wrong bearer) yet checked on all of them.
   */
  peek(key: string, windowMs: number): WindowCount | null | Promise<WindowCount | null>;
  /** The same counters as @fastify/rate-limit's `store` option takes them. */
  readonly pluginStore: new () => FastifyRateLimitStore;
  close(): Promise<void>;
}

/** No limit in @fastify/rate-limit's terms: counting alone is asked of it. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

function storeOf(counters: PluginStore, close: () => Promise<void>): RateLimitStore {
  const ask = (method: 'incr' | 'read', key: string, windowMs: number) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      counters[method](
        key,
        (error, result) => (error || !result ? reject(error) : resolve(result)),
        windowMs,
        UNLIMITED,
      ),
    );
  return {
    async hit(key, windowMs) {
      const { current, ttl } = await ask('incr', key, windowMs);
      return { count: current, resetInMs: ttl > 0 ? ttl : windowMs };
    },
    async peek(key, windowMs) {
      const { current, ttl } = await ask('read', key, windowMs);
      return current > 0 && ttl > 0 ? { count: current, resetInMs: ttl } : null;
    },
    pluginStore: class {
      // @fastify/rate-limit constructs its store itself: this one hands it the shared counters.
      constructor() {
        // biome-ignore lint/correctness/noConstructorReturn: the plugin takes a class, the counters exist already
        return counters;
      }
    } as unknown as new () => FastifyRateLimitStore,
    close,
  };
}

/** One process's counters. */
export function createMemoryStore(): RateLimitStore {
  return storeOf(localCounters(), async () => undefined);
}

function localCounters(): PluginStore {
  const local = new LocalStore(false, false, LOCAL_WINDOWS);
  // The store answers with its own window object, which the next hit changes, often before the
  // first answer's reader runs: each answer is a copy, so concurrent requests see their own count.
  const copied =
    (method: 'incr' | 'read') => (key: string, answer: Answer, timeWindow: number, max: number) =>
      local[method](
        key,
        (error, result) => answer(error, result && { current: result.current, ttl: result.ttl }),
        timeWindow,
        max,
      );
  // Every limit names its keys, so all of them share one store rather than one per limit.
  const counters: PluginStore = {
    incr: copied('incr'),
    read: copied('read'),
    child: () => counters,
  };
  return counters;
}

/**
 * Counters in Redis, shared by every instance of the service, with this process's own standing in
 * while Redis cannot be reached (docs/decisions/0019-rate-limits.md). An outage then weakens every
 * limit to one allowance per instance, never to none: a sign-in guesser gets at most the limit
 * times the number of instances, and each request so counted is logged at error level.
 */
export function createRedisStore(redis: Redis, logger: Logger): RateLimitStore {
  const shared = new RedisStore(false, false, redis, 'pension-admin:rate:');
  const local = localCounters();
  const fellBack = (error: unknown) =>
    logger.error({ err: error }, 'rate-limit store unavailable: counted by this instance alone');
  const either =
    (method: 'incr' | 'read') => (key: string, answer: Answer, timeWindow: number, max: number) =>
      shared[method](
        key,
        (error, result) => {
          if (!error) return answer(null, result);
          fellBack(error);
          local[method](key, answer, timeWindow, max);
        },
        timeWindow,
        max,
      );
  const counters: PluginStore = {
    incr: either('incr'),
    read: either('read'),
    child: () => counters,
  };
  return storeOf(counters, async () => {
    // quit() waits for pending replies, but fails on a connection that never opened.
    await redis.quit().catch(() => redis.disconnect());
  });
}
