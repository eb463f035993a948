import type { FastifyRequest } from 'fastify';
import { type ActorContext, actorFor, type RequestOrigin } from './actor.js';

const MAX_LENGTH = 255;

function headerValue(value: string | string[] | undefined): string {
  const text = (Array.isArray(value) ? value.join(', ') : (value ?? '')).trim();
  return text === '' ? 'unknown' : text.slice(0, MAX_LENGTH);
}

/**
 * What an audit record keeps of where a request came from (docs/api.md, "The audit log"): the
 * `x-forwarded-for` and `user-agent` headers as sent (bounded), each `unknown` when absent, and
 * beside them the client address the server trusted: `request.ip`, the socket's address unless the
 * socket is a TRUST_PROXY peer, whose forwarded address is believed (the address the rate limiter
 * counts). The header is evidence anyone can write; the client address is what the server can vouch
 * for.
 */
export function requestOrigin(request: FastifyRequest): Required<RequestOrigin> {
  return {
    ipAddress: headerValue(request.headers['x-forwarded-for']),
    userAgent: headerValue(request.headers['user-agent']),
    // A socket that closed before its request was handled reports no address (rate-limits.ts).
    clientAddress: headerValue(request.ip),
  };
}

/**
 * The actor of a request, from the verified session only. Any brokerId in the body, query or
 * headers plays no part (docs/decisions/0022-tenancy-actor-and-row-level-security.md). Only routes
 * behind the 401 gate call this.
 */
export function actorOf(request: FastifyRequest): ActorContext {
  const session = request.session;
  if (!session) throw new Error('actorOf called on a route the session gate does not cover');
  return actorFor(session, requestOrigin(request));
}
