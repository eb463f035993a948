import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import type { AuthenticatedSession } from '../auth/auth.service.js';
import { readSessionCredential, type SessionCredential } from '../auth/session.js';
import type { VerifiedSession } from '../auth/session-token.js';
import { routedPathOf } from './api-paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The claims of a correctly signed, unexpired token sent with the request; null without one.
     * Says whose request it is, not that the session still holds: that is `session`.
     */
    tokenClaims: VerifiedSession | null;
    /** Set by the gate from a verified token of an active user; null without one. */
    session: AuthenticatedSession | null;
    sessionSource: SessionCredential['source'] | null;
  }
}

export interface TokenClaimsOptions {
  verifyToken: (token: string) => Promise<VerifiedSession | null>;
  /** The session cookie's name in this deployment (sessionCookieName). */
  cookieName: string;
}

/**
 * The first step of the gate: the token's signature and times, checked without the database, so
 * that the rate limits, which run next, can count signed-in traffic per user (decisions.md §2)
 * before the gate spends a database read on it.
 */
const tokenClaimsPlugin: FastifyPluginAsync<TokenClaimsOptions> = async (
  app,
  { verifyToken, cookieName },
) => {
  app.decorateRequest('tokenClaims', null);
  app.decorateRequest('sessionSource', null);
  // Callback style, and no promise at all for requests without a token (probes, the page, assets).
  app.addHook('onRequest', (request, _reply, done) => {
    const credential = readSessionCredential(request, cookieName);
    if (credential === null) {
      done();
      return;
    }
    verifyToken(credential.token).then((claims) => {
      request.tokenClaims = claims;
      request.sessionSource = claims ? credential.source : null;
      done();
    }, done);
  });
};

export const tokenClaims = fp(tokenClaimsPlugin, {
  name: 'token-claims',
  dependencies: ['@fastify/cookie'],
});

export interface AuthGateOptions {
  /** The session behind verified claims, or null when its user no longer holds. */
  confirm: (claims: VerifiedSession) => Promise<AuthenticatedSession | null>;
}

/**
 * service-spec §5.2: no handler, validator or 404 runs for a protected path without a valid
 * session. The path is the one the router routes, in whatever form the target came (api-paths.ts).
 */
const authGate: FastifyPluginAsync<AuthGateOptions> = async (app, { confirm }) => {
  app.decorateRequest('session', null);

  const admit = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.session === null && routedPathOf(request).requiresSession) {
      reply.code(401).send({ error: 'Unauthorized' });
      return;
    }
    done();
  };

  app.addHook('onRequest', (request, reply, done) => {
    const claims = request.tokenClaims;
    if (claims === null) {
      admit(request, reply, done);
      return;
    }
    confirm(claims).then((session) => {
      request.session = session;
      if (!session) request.sessionSource = null;
      admit(request, reply, done);
    }, done);
  });
};

export default fp(authGate, { name: 'auth-gate', dependencies: ['token-claims'] });
