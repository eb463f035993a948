import type { FastifyRequest } from 'fastify';

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
