import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type BearerPrefix, routedPathOf } from './api-paths.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { clientKey } from './rate-limits.js';
import { logSecurityEvent, type SecurityEvent } from './security-events.js';
import { sendTooManyRequests } from './too-many-requests.js';

/** Wrong bearers a client address may send in the window before every call of it is refused. */
export const MAX_BEARER_FAILURES = 10;
export const BEARER_FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Compares an Authorization header with `Bearer <secret>` in constant time: both sides are
 * reduced to an HMAC under a key of this process first, so neither the content nor the length of
 * the secret shows in how long a wrong guess takes.
 */
export function bearerMatcher(secret: string): (header: string | undefined) => boolean {
  const key = createSecretKey(randomBytes(32));
  const digest = (value: string) => createHmac('sha256', key).update(value).digest();
  const expected = digest(`Bearer ${secret}`);
  return (header) => timingSafeEqual(digest(header ?? ''), expected);
}

export interface BearerGateOptions {
  /** The secret the bearer must carry (CRON_SECRET, RAG_INGEST_SECRET). */
  secret: string;
  store: RateLimitStore;
  /** Names the wrong-bearer counter, one per secret: `cron`, `rag-ingest`. */
  counter: string;
  /** The security event a refused bearer logs. */
  event: SecurityEvent;
}

/**
 * The request hook of a route that machines call with a shared secret instead of a session
 * (scheduled jobs, corpus ingest): it runs before the body is read and before anything else the
 * route does. A client that keeps sending wrong bearers is refused altogether for a while, with
 * the right one too, so guessing learns nothing. The counts are kept in the API limits' store:
 * while Redis cannot be reached, by this instance alone (rate-limit-store.ts).
 */
export function bearerGate({ secret, store, counter, event }: BearerGateOptions) {
  const matches = bearerMatcher(secret);
  const failuresKey = (request: FastifyRequest) => `${counter}-bearer:${clientKey(request.ip)}`;

  return async function requireBearer(request: FastifyRequest, reply: FastifyReply) {
    const failures = await store.peek(failuresKey(request), BEARER_FAILURE_WINDOW_MS);
    if (failures && failures.count >= MAX_BEARER_FAILURES) {
      return sendTooManyRequests(reply, failures.resetInMs);
    }
    if (matches(request.headers.authorization)) return;
    await store.hit(failuresKey(request), BEARER_FAILURE_WINDOW_MS);
    logSecurityEvent(request.log, event, { userId: null });
    return reply.code(401).send({ error: 'Unauthorized' });
  };
}

export interface BearerPrefixGatesOptions {
  store: RateLimitStore;
  /** The secret of each machine-called prefix (api-paths.ts, BEARER_PREFIXES). */
  secrets: Record<BearerPrefix, string>;
}

const PREFIX_GATES: Record<BearerPrefix, Pick<BearerGateOptions, 'counter' | 'event'>> = {
  cron: { counter: 'cron', event: 'cron.bearer_refused' },
  rag: { counter: 'rag-ingest', event: 'rag.bearer_refused' },
};

/**
 * Every target under `/api/cron/` and `/api/rag/` answers 401 (docs/api.md, "Errors") without
 * its bearer, before its body is read and before routing decides anything, whether or not a route
 * serves it. It decides by the request's one classification (api-paths.ts), so what it guards is
 * exactly what the router routes there, in whatever form the target came: absolute, encoded,
 * doubled slashes, another case. It is the one check of those secrets: the routes under the
 * prefixes have none of their own.
 */
const bearerPrefixGates: FastifyPluginAsync<BearerPrefixGatesOptions> = async (
  app,
  { store, secrets },
) => {
  const gates = {} as Record<BearerPrefix, ReturnType<typeof bearerGate>>;
  for (const [bearer, gate] of Object.entries(PREFIX_GATES) as [
    BearerPrefix,
    (typeof PREFIX_GATES)[BearerPrefix],
  ][]) {
    gates[bearer] = bearerGate({ ...gate, secret: secrets[bearer], store });
  }
  // Callback style: an async hook would cost every request a promise round trip.
  app.addHook('onRequest', (request, reply, done) => {
    const bearer = routedPathOf(request).bearer;
    if (bearer === null) {
      done();
      return;
    }
    gates[bearer](request, reply).then(() => {
      if (!reply.sent) done();
    }, done);
  });
};

export default fp(bearerPrefixGates, {
  name: 'bearer-prefix-gates',
  dependencies: ['routed-paths'],
});
