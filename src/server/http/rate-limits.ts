import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import { canonicalPath, isApiPath } from './api-paths.js';
import type { RateLimitStore, WindowCount } from './rate-limit-store.js';

interface RateLimit {
  name: string;
  max: number;
  windowMs: number;
  appliesTo(request: FastifyRequest, path: string): boolean;
}

const MINUTE = 60_000;
const SIGN_IN_PATHS = new Set(['/api/auth/signin', '/api/auth/callback/credentials']);

/**
 * service-spec §8, per client IP. A request counts against every limit that covers it: a
 * sign-in uses up the general, the auth and the sign-in allowance at once.
 */
export const RATE_LIMITS: readonly RateLimit[] = [
  { name: 'api', max: 100, windowMs: MINUTE, appliesTo: (request) => isApiPath(request.url) },
  {
    name: 'auth',
    max: 10,
    windowMs: MINUTE,
    appliesTo: (_request, path) => path.startsWith('/api/auth/'),
  },
  {
    name: 'signin',
    max: 5,
    windowMs: MINUTE,
    appliesTo: (request, path) => request.method === 'POST' && SIGN_IN_PATHS.has(path),
  },
  {
    name: 'forgot-password',
    max: 3,
    windowMs: 5 * MINUTE,
    appliesTo: (request, path) => request.method === 'POST' && path === '/api/auth/forgot-password',
  },
];

export interface RateLimitOptions {
  store: RateLimitStore;
}

/** Fail open: an unreachable counter store must not take the whole service down with it. */
function admitUncounted(request: FastifyRequest, done: HookHandlerDoneFunction, error: unknown) {
  request.log.error({ err: error }, 'rate-limit store unavailable: request not counted');
  done();
}

/** 429 while any limit's window is over its allowance, retrying when the last of them resets. */
function answer(
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  limits: readonly RateLimit[],
  counts: readonly WindowCount[],
) {
  let retryAfterMs = 0;
  limits.forEach((limit, index) => {
    const { count, resetInMs } = counts[index] as WindowCount;
    if (count > limit.max) retryAfterMs = Math.max(retryAfterMs, resetInMs);
  });
  if (retryAfterMs === 0) {
    done();
    return;
  }
  reply
    .code(429)
    .header('retry-after', String(Math.ceil(retryAfterMs / 1000)))
    .send({ error: 'Too many requests' });
}

/**
 * decisions.md §2: `429 {"error":"Too many requests"}` with `Retry-After`. The client is
 * `request.ip`: the socket address, or the right-most address in X-Forwarded-For that is not a
 * TRUST_PROXY peer, so a forged header from an untrusted peer changes nothing.
 */
const rateLimits: FastifyPluginAsync<RateLimitOptions> = async (app, { store }) => {
  // Callback style: with the in-process store a request is counted without a single promise.
  app.addHook('onRequest', (request, reply, done) => {
    const path = canonicalPath(request.url) ?? request.url;
    const limits = RATE_LIMITS.filter((limit) => limit.appliesTo(request, path));
    if (limits.length === 0) {
      done();
      return;
    }
    const client = request.ip;
    let counts: Array<WindowCount | Promise<WindowCount>>;
    try {
      counts = limits.map((limit) => store.hit(`${limit.name}:${client}`, limit.windowMs));
    } catch (error) {
      admitUncounted(request, done, error);
      return;
    }
    if (counts.some((count) => count instanceof Promise)) {
      Promise.all(counts).then(
        (settled) => answer(reply, done, limits, settled),
        (error) => admitUncounted(request, done, error),
      );
    } else {
      answer(reply, done, limits, counts as WindowCount[]);
    }
  });
  app.addHook('onClose', () => store.close());
};

export default fp(rateLimits, { name: 'rate-limits' });
