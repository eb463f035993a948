import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type RoutedPath, routedPathOf } from './api-paths.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { sendTooManyRequests } from './too-many-requests.js';

interface RateLimit {
  name: string;
  max: number;
  windowMs: number;
  /** Whom it counts: the client address (IPv6 by its /64), or the signed-in user. */
  per: 'client' | 'user';
  appliesTo(request: FastifyRequest, routed: RoutedPath): boolean;
}

const MINUTE = 60_000;
/**
 * Signed-in requests a minute per person: 60 full page loads of pages that ask up to ten things
 * each, the heaviest of the main pages asking eight
 * (docs/decisions/0106-limits-for-a-person-working-fast.md).
 */
export const PER_USER_PER_MINUTE = 600;
/**
 * Signed-in requests a minute from one address: five people at that pace at once, or an office of
 * a few dozen at an ordinary one.
 */
export const PER_OFFICE_PER_MINUTE = 3_000;
/**
 * The 5 sign-in attempts per address a minute (docs/api.md, "Rate limits"), read as failed ones:
 * sign-ins that failed, or are still being answered, in the current clock minute
 * (docs/decisions/0107-sign-in-limit-counts-failures.md).
 */
export const SIGN_IN_FAILURES_PER_MINUTE = 5;
/**
 * What counts as a sign-in attempt: the password, and the second step that follows it for an
 * account with a second factor (a code, or a passkey, which is also a way in alone). Each is
 * counted by its outcome, so an office whose people all use a second factor is held to failures
 * too (docs/decisions/0107-sign-in-limit-counts-failures.md).
 */
const SIGN_IN_PATHS = new Set([
  '/api/auth/signin',
  '/api/auth/callback/credentials',
  '/api/auth/mfa/verify',
  '/api/auth/passkeys/authentication',
]);
/**
 * Under /api/auth/ but no authentication attempt (docs/api.md, "Rate limits"): reading one's own
 * session, on every page load, and signing out must never cost the allowance that guards sign-in.
 */
const SESSION_READ = '/api/auth/session';
/**
 * Asking for a passkey prompt's challenge proves nothing and is answered by every sign-in with a
 * passkey; what the prompt's answer proves is counted as a sign-in attempt.
 */
const NOT_ATTEMPTS = new Set([
  SESSION_READ,
  '/api/auth/signout',
  '/api/auth/passkeys/authentication/options',
]);
const CRON_PREFIX = '/api/cron/';
const RAG_PREFIX = '/api/rag/';
/** Document downloads through signed URLs, outside /api (modules/documents/documents.routes.ts). */
export const FILES_PREFIX = '/files/';

const signedIn = (request: FastifyRequest) => request.tokenClaims !== null;
const isSignIn = (request: FastifyRequest, routed: RoutedPath) =>
  request.method === 'POST' && SIGN_IN_PATHS.has(routed.path);

/**
 * The limits of docs/api.md ("Rate limits"), as docs/decisions/0106 reads them. A request counts
 * against every limit that covers it. Anonymous traffic is counted per client address. A broker's
 * whole office often shares one public address, so signed-in traffic (a correctly signed token) is
 * counted per user, under a per-address ceiling sized for an office. Each limit matches the method
 * and the path the router routes (api-paths.ts): a routed request by its route's pattern, so no
 * form of the request target can reach a handler uncounted.
 */
export const RATE_LIMITS: readonly RateLimit[] = [
  {
    name: 'api',
    max: 100,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (request, routed) => routed.api && !signedIn(request),
  },
  {
    name: 'api-user',
    max: PER_USER_PER_MINUTE,
    windowMs: MINUTE,
    per: 'user',
    // Every page load reads the session, and that read is the gate's own check answered as it
    // stands: counted against the person, page loads alone would use up their allowance.
    appliesTo: (request, routed) => routed.api && signedIn(request) && routed.path !== SESSION_READ,
  },
  {
    name: 'api-office',
    max: PER_OFFICE_PER_MINUTE,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (request, routed) => routed.api && signedIn(request),
  },
  {
    // A sign-in is counted by its outcome instead (signInGate below): a correct one is never
    // refused because colleagues at the same address signed in.
    name: 'auth',
    max: 10,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (request, routed) =>
      routed.path.startsWith('/api/auth/') &&
      !NOT_ATTEMPTS.has(routed.path) &&
      !isSignIn(request, routed),
  },
  {
    // Scheduled jobs (docs/decisions/0057-scheduled-jobs.md): a scheduler calls a few times a
    // minute at most. Every call counts, right bearer or wrong, before the bearer is looked at;
    // wrong bearers are counted besides by the route itself (modules/cron/cron.routes.ts).
    name: 'cron',
    max: 30,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (_request, routed) => routed.path.startsWith(CRON_PREFIX),
  },
  {
    // Corpus ingest (docs/decisions/0069-regulatory-corpus-and-retrieval.md): an operator's tool
    // sends a few documents at a time, each up to ten million characters, so a handful of calls a
    // minute is plenty and more would only be load. Counted before the bearer is looked at.
    name: 'rag-ingest',
    max: 10,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (_request, routed) => routed.path.startsWith(RAG_PREFIX),
  },
  {
    // Signed document URLs (docs/decisions/0062-document-vault.md): outside /api, so no other
    // limit counts them. A person downloads a handful of files a minute; a token is guessed by
    // no number of tries, but every try costs a signature check and a refused one is answered.
    name: 'files',
    max: 60,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (_request, routed) => routed.path.startsWith(FILES_PREFIX),
  },
  {
    name: 'forgot-password',
    max: 3,
    windowMs: 5 * MINUTE,
    per: 'client',
    appliesTo: (request, routed) =>
      request.method === 'POST' && routed.path === '/api/auth/forgot-password',
  },
];

/**
 * Whom a limit counts: an IPv4 client by its address, an IPv6 client by its /64, as
 * @fastify/rate-limit reads them. A subscriber, host or virtual machine is routinely given a whole
 * /64 and can send from any address in it, so counting single IPv6 addresses would hand it 2^64
 * allowances. An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address.
 */
export function clientKey(address: string | undefined): string {
  // A socket that closed before its request was counted reports no address (Fastify's types
  // say string); such a request is answered to nobody, and shares one key.
  return address === undefined ? 'unknown' : normalizeIP(address, 64);
}

export interface RateLimitOptions {
  store: RateLimitStore;
  /** The service's clock, whose clock minute the sign-in attempts are counted in. */
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The clock minute a sign-in attempt was counted in, so its outcome is credited there too. */
    signInMinute: number | null;
  }
}

/**
 * Sign-in attempts per address, counted by outcome (docs/decisions/0107): every attempt is
 * counted as it arrives and every success is credited when answered, both within the clock minute,
 * so the failed and unanswered ones are the difference. A guesser's burst sent at once is
 * therefore refused from its sixth request, answered or not, while an office's correct sign-ins
 * never use up the allowance.
 */
function signInGate(store: RateLimitStore, now: () => Date) {
  const keyOf = (request: FastifyRequest, minute: number, what: 'attempts' | 'successes') =>
    `signin-${what}:${clientKey(request.ip)}:${minute}`;
  return {
    async admit(request: FastifyRequest): Promise<number> {
      const at = now().getTime();
      const minute = Math.floor(at / MINUTE);
      request.signInMinute = minute;
      const [attempts, successes] = await Promise.all([
        store.hit(keyOf(request, minute, 'attempts'), MINUTE),
        store.peek(keyOf(request, minute, 'successes'), MINUTE),
      ]);
      const failedOrOpen = attempts.count - 1 - (successes?.count ?? 0);
      return failedOrOpen >= SIGN_IN_FAILURES_PER_MINUTE ? (minute + 1) * MINUTE - at : 0;
    },
    async credit(request: FastifyRequest, reply: FastifyReply) {
      const minute = request.signInMinute;
      if (minute === null || reply.statusCode !== 200) return;
      await store.hit(keyOf(request, minute, 'successes'), MINUTE);
    },
  };
}

/**
 * `429 {"error":"Too many requests"}` with `Retry-After` (docs/api.md, "Rate limits"), when any
 * limit that covers the request is over its allowance, retrying when the last of them resets. The
 * counting is @fastify/rate-limit's, one limiter per limit (its route hook stops at the first
 * limit, and several cover one request), in the store the app was given: this process's, or Redis.
 * The client is `request.ip` (the socket address, or the right-most address in X-Forwarded-For that
 * is not a TRUST_PROXY peer, so a forged header from an untrusted peer changes nothing).
 */
const rateLimits: FastifyPluginAsync<RateLimitOptions> = async (app, { store, now }) => {
  await app.register(fastifyRateLimit, { global: false, store: store.pluginStore });
  const limiters = RATE_LIMITS.map((limit) => ({
    limit,
    check: app.createRateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      keyGenerator: (request) =>
        `${limit.name}:${limit.per === 'user' ? request.tokenClaims?.userId : clientKey(request.ip)}`,
    }),
  }));
  const signIns = signInGate(store, now);
  app.decorateRequest('signInMinute', null);

  app.addHook('onRequest', async (request, reply) => {
    const routed = routedPathOf(request);
    const applicable = limiters.filter(({ limit }) => limit.appliesTo(request, routed));
    const signingIn = isSignIn(request, routed);
    if (applicable.length === 0 && !signingIn) return;
    const [outcomes, signInWait] = await Promise.all([
      Promise.all(applicable.map(({ check }) => check(request))),
      signingIn ? signIns.admit(request) : 0,
    ]);
    let retryAfterMs = signInWait;
    for (const outcome of outcomes) {
      if (!outcome.isAllowed && outcome.isExceeded)
        retryAfterMs = Math.max(retryAfterMs, outcome.ttl);
    }
    if (retryAfterMs > 0) return sendTooManyRequests(reply, retryAfterMs);
  });
  // Before the answer leaves: the next attempt from the address already sees this one's outcome.
  app.addHook('onSend', async (request, reply) => {
    await signIns.credit(request, reply);
  });
  app.addHook('onClose', () => store.close());
};

export default fp(rateLimits, { name: 'rate-limits', dependencies: ['token-claims'] });
