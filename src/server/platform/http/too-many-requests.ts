import type { FastifyReply } from 'fastify';

/**
 * A limit's refusal (docs/api.md, "Rate limits") is `429 {"error":"Too many requests"}` with
 * `Retry-After`, in whole seconds and never 0, so a client that honours it does wait.
 */
export function sendTooManyRequests(reply: FastifyReply, retryAfterMs: number): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))))
    .send({ error: 'Too many requests' });
}
