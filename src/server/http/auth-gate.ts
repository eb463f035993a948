import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import type { AuthenticatedSession } from '../auth/auth.service.js';
import { readSessionCredential, type SessionCredential } from '../auth/session.js';
import { routedPathOf } from './api-paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the gate from a verified token of an active user; null without one. */
    session: AuthenticatedSession | null;
    sessionSource: SessionCredential['source'] | null;
  }
}

export interface AuthGateOptions {
  authenticate: (token: string) => Promise<AuthenticatedSession | null>;
  /** The session cookie's name in this deployment (sessionCookieName). */
  cookieName: string;
}

/**
 * service-spec §5.2: no handler, validator or 404 runs for a protected path without a valid
 * session. The path is the one the router routes, in whatever form the target came (api-paths.ts).
 */
const authGate: FastifyPluginAsync<AuthGateOptions> = async (app, { authenticate, cookieName }) => {
  app.decorateRequest('session', null);
  app.decorateRequest('sessionSource', null);

  const admit = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.session === null && routedPathOf(request).requiresSession) {
      reply.code(401).send({ error: 'Unauthorized' });
      return;
    }
    done();
  };

  // Callback style, and no promise at all for requests without a token (probes, the page, assets).
  app.addHook('onRequest', (request, reply, done) => {
    const credential = readSessionCredential(request, cookieName);
    if (credential === null) {
      admit(request, reply, done);
      return;
    }
    authenticate(credential.token).then((session) => {
      request.session = session;
      request.sessionSource = session ? credential.source : null;
      admit(request, reply, done);
    }, done);
  });
};

export default fp(authGate, { name: 'auth-gate', dependencies: ['@fastify/cookie'] });
