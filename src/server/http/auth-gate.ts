import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Authenticator } from '../auth/session.js';
import type { VerifiedSession } from '../auth/session-token.js';
import { requiresSession } from './api-paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the gate from a verified token; null on public paths without a session. */
    session: VerifiedSession | null;
  }
}

export interface AuthGateOptions {
  authenticate: Authenticator;
}

/** service-spec §5.2: no handler, validator or 404 runs for a protected path without a valid session. */
const authGate: FastifyPluginAsync<AuthGateOptions> = async (app, { authenticate }) => {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request, reply) => {
    request.session = await authenticate(request);
    if (request.session === null && requiresSession(request.url)) {
      return reply.code(401).send({ error: 'Unauthorized' });
    }
  });
};

export default fp(authGate, { name: 'auth-gate', dependencies: ['@fastify/cookie'] });
