import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import { type Authenticator, readSessionToken } from '../auth/session.js';
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

  const admit = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.session === null && requiresSession(request.url)) {
      reply.code(401).send({ error: 'Unauthorized' });
      return;
    }
    done();
  };

  // Callback style, and no promise at all for requests without a token (probes, the page, assets).
  app.addHook('onRequest', (request, reply, done) => {
    if (readSessionToken(request) === null) {
      admit(request, reply, done);
      return;
    }
    authenticate(request).then((session) => {
      request.session = session;
      admit(request, reply, done);
    }, done);
  });
};

export default fp(authGate, { name: 'auth-gate', dependencies: ['@fastify/cookie'] });
