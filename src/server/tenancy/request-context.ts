import type { FastifyRequest } from 'fastify';
import { type ActorContext, actorFor } from './actor.js';

const MAX_LENGTH = 255;

function headerValue(value: string | string[] | undefined): string {
  const text = (Array.isArray(value) ? value.join(', ') : (value ?? '')).trim();
  return text === '' ? 'unknown' : text.slice(0, MAX_LENGTH);
}

/**
 * What service-spec §2.8 records about where a request came from: the `x-forwarded-for` and
 * `user-agent` headers as sent (bounded), each `unknown` when absent. The rate limiter uses the
 * verified client address instead; this is evidence, not identity.
 */
export function requestOrigin(request: FastifyRequest): { ipAddress: string; userAgent: string } {
  return {
    ipAddress: headerValue(request.headers['x-forwarded-for']),
    userAgent: headerValue(request.headers['user-agent']),
  };
}

/**
 * service-spec §2.11: the actor of a request, from the verified session only. Any brokerId in the
 * body, query or headers plays no part (§5.3). Only routes behind the 401 gate call this.
 */
export function actorOf(request: FastifyRequest): ActorContext {
  const session = request.session;
  if (!session) throw new Error('actorOf called on a route the session gate does not cover');
  return actorFor(session, requestOrigin(request));
}
