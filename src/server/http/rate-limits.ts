import { isIP } from 'node:net';
import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import { type RoutedPath, routedPathOf } from './api-paths.js';
import type { RateLimitStore, WindowCount } from './rate-limit-store.js';
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
const SIGN_IN_PATHS = new Set(['/api/auth/signin', '/api/auth/callback/credentials']);
/**
 * Under /api/auth/ but no authentication attempt (decisions.md §2): reading one's own session, on
 * every page load, and signing out must never cost the allowance that guards sign-in.
 */
const SESSION_READ = '/api/auth/session';
const NOT_ATTEMPTS = new Set([SESSION_READ, '/api/auth/signout']);
const CRON_PREFIX = '/api/cron/';
const RAG_PREFIX = '/api/rag/';
/** Document downloads through signed URLs, outside /api (modules/documents/documents.routes.ts). */
export const FILES_PREFIX = '/files/';

const signedIn = (request: FastifyRequest) => request.tokenClaims !== null;

/**
 * service-spec §8, as decisions.md §2 reads it. A request counts against every limit that covers
 * it: a sign-in uses up the general, the auth and the sign-in allowance at once. Anonymous traffic
 * is counted per client address. A broker's whole office often shares one public address, so
 * signed-in traffic (a correctly signed token) is counted per user, under a per-address ceiling
 * sized for an office. Each limit matches the method and the path the router routes
 * (api-paths.ts): a routed request by its route's pattern, so no form of the request target can
 * reach the sign-in handler uncounted.
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
    max: 100,
    windowMs: MINUTE,
    per: 'user',
    // Every page load reads the session, and that read is the gate's own check answered as it
    // stands: counted against the person, page loads alone would use up their allowance.
    appliesTo: (request, routed) => routed.api && signedIn(request) && routed.path !== SESSION_READ,
  },
  {
    name: 'api-office',
    max: 1_000,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (request, routed) => routed.api && signedIn(request),
  },
  {
    name: 'auth',
    max: 10,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (_request, routed) =>
      routed.path.startsWith('/api/auth/') && !NOT_ATTEMPTS.has(routed.path),
  },
  {
    name: 'signin',
    max: 5,
    windowMs: MINUTE,
    per: 'client',
    appliesTo: (request, routed) => request.method === 'POST' && SIGN_IN_PATHS.has(routed.path),
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

/** An IPv4 address as a dual-stack socket reports it: the common case, answered without parsing. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The 16-bit groups of part of a valid IPv6 address; a dotted IPv4 tail is two groups. */
function groupsOf(part: string): number[] {
  if (part === '') return [];
  return part.split(':').flatMap((piece) => {
    if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

/**
 * Whom a limit counts: an IPv4 client by its address, an IPv6 client by its /64. A
 * subscriber, host or virtual machine is routinely given a whole /64 and can send from any
 * address in it, so counting single IPv6 addresses would hand it 2^64 allowances. An IPv4
 * address written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address, a single client.
 */
export function clientKey(address: string | undefined): string {
  // A socket that closed before its request was counted reports no address (Fastify's types
  // say string); such a request is answered to nobody, and shares one key.
  if (address === undefined) return 'unknown';
  if (!address.includes(':')) return address;
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return mapped[1] as string;
  const withoutZone = address.split('%')[0] as string;
  if (isIP(withoutZone) !== 6) return address;
  const [head = '', tail] = withoutZone.split('::');
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  const groups = [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
  if (groups.slice(0, 6).join(':') === '0:0:0:0:0:65535') {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

export interface RateLimitOptions {
  store: RateLimitStore;
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
  sendTooManyRequests(reply, retryAfterMs);
}

/**
 * decisions.md §2: `429 {"error":"Too many requests"}` with `Retry-After`. The client is
 * `request.ip` (the socket address, or the right-most address in X-Forwarded-For that is not a
 * TRUST_PROXY peer, so a forged header from an untrusted peer changes nothing), IPv6 by its /64.
 */
const rateLimits: FastifyPluginAsync<RateLimitOptions> = async (app, { store }) => {
  // Callback style: with the in-process store a request is counted without a single promise.
  app.addHook('onRequest', (request, reply, done) => {
    const routed = routedPathOf(request);
    const limits = RATE_LIMITS.filter((limit) => limit.appliesTo(request, routed));
    if (limits.length === 0) {
      done();
      return;
    }
    const client = clientKey(request.ip);
    const user = request.tokenClaims?.userId;
    // The store never fails a hit (rate-limit-store.ts): anything thrown is a defect, for the
    // error handler.
    const counts = limits.map((limit) =>
      store.hit(`${limit.name}:${limit.per === 'user' ? user : client}`, limit.windowMs),
    );
    if (counts.some((count) => count instanceof Promise)) {
      Promise.all(counts).then((settled) => answer(reply, done, limits, settled), done);
    } else {
      answer(reply, done, limits, counts as WindowCount[]);
    }
  });
  app.addHook('onClose', () => store.close());
};

export default fp(rateLimits, { name: 'rate-limits', dependencies: ['token-claims'] });
