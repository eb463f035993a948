import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { routedPathOf } from './api-paths.js';
import { applySecurityHeaders } from './security-headers.js';

/**
 * Fastify's router answers URLs it cannot decode before any hook runs. This takes over those
 * answers so they carry the security headers and never echo the URL. A malformed URL names no
 * resource; under /api it is answered as the gate answers an anonymous request.
 */
export function answerMalformedRequest(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  applySecurityHeaders(request, reply);
  if (routedPathOf(request).requiresSession) {
    reply.code(401).send({ error: 'Unauthorized' });
    return;
  }
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply.code(tooLong ? 414 : 400).send({ error: tooLong ? 'URI too long' : 'Bad request' });
}
