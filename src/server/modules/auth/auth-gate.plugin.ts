import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import { routedPathOf } from '../../platform/http/api-paths.js';
import type { VerifiedSession } from '../../platform/tenancy/session-token.js';
import type { AuthenticatedSession } from './auth.service.js';
import { readSessionCredential, type SessionCredential } from './session-cookie.rules.js';

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
 * that the rate limits, which run next, can count signed-in traffic per user (docs/api.md, "Rate
 * limits") before the gate spends a database read on it.
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
  /** The session behind verified claims, or null when its user no longer holds (one read). */
  confirm: (claims: VerifiedSession) => Promise<AuthenticatedSession | null>;
  /**
   * The session behind claims this process confirmed before, its check still owed (pending), or
   * null: no database read (auth.service.ts).
   */
  admit: (claims: VerifiedSession) => AuthenticatedSession | null;
  /** Called when a session's check failed, so nothing remembered of its user is used again. */
  forget: (userId: string) => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler does work outside the database before its first transaction (an upload spooled
     * to disk): its session is checked with a read before the handler runs, as on public routes.
     */
    confirmSessionFirst?: boolean;
  }
}

const UNAUTHORIZED_BODY = JSON.stringify({ error: 'Unauthorized' });
const UNAVAILABLE_BODY = JSON.stringify({ error: 'Service unavailable' });

/**
 * No handler, validator or 404 runs for a protected path without a valid session (docs/api.md,
 * "Errors": the 401). The path is the one the router routes, in whatever form the target came
 * (api-paths.ts).
 *
 * On a protected route (docs/decisions/0060-request-path-one-round-trip.md), a token whose
 * claims this process has confirmed before is admitted without a read, its check pending; the
 * request's first transaction holds it against the user's row in the same batch as its work
 * (with-actor.ts), and whatever answer is about to leave with the check still pending waits for
 * a read of the row first. A session that fails either way is answered 401, whatever the handler
 * produced, and nothing it wrote was committed. Every other request is confirmed with a read here,
 * before anything runs.
 */
const authGate: FastifyPluginAsync<AuthGateOptions> = async (app, { confirm, admit, forget }) => {
  app.decorateRequest('session', null);

  const admitRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) => {
    if (request.session === null && routedPathOf(request).requiresSession) {
      reply.code(401).send({ error: 'Unauthorized' });
      return;
    }
    done();
  };

  app.addHook('onRequest', (request, reply, done) => {
    const claims = request.tokenClaims;
    if (claims === null) {
      admitRequest(request, reply, done);
      return;
    }
    if (routedPathOf(request).requiresSession && !request.routeOptions.config.confirmSessionFirst) {
      const known = admit(claims);
      if (known) {
        request.session = known;
        done();
        return;
      }
    }
    confirm(claims).then((session) => {
      request.session = session;
      if (!session) request.sessionSource = null;
      admitRequest(request, reply, done);
    }, done);
  });

  /** Replaces the handler's answer (and any cookie it set) with an error body. */
  const replace = (reply: FastifyReply, payload: unknown, status: number, body: string) => {
    reply.removeHeader('set-cookie');
    reply.code(status);
    reply.header('content-type', 'application/json; charset=utf-8');
    if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') {
      (payload as { destroy: () => void }).destroy();
    }
    return body;
  };

  const refuse = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const userId = request.session?.userId;
    if (userId !== undefined) forget(userId);
    request.session = null;
    request.sessionSource = null;
    // Whatever the handler set (a renewed cookie included) belongs to a session that has ended.
    return replace(reply, payload, 401, UNAUTHORIZED_BODY);
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    const session = request.session;
    const check = session?.check;
    if (!session || check === undefined || check.state === 'confirmed') {
      done(null, payload);
      return;
    }
    if (check.state === 'refused') {
      done(null, refuse(request, reply, payload));
      return;
    }
    // Nothing in this request ran the check (it answered before any transaction, or the one it
    // opened failed before its check could pass): read the row before the answer leaves.
    confirm(session).then(
      (confirmed) => {
        if (confirmed) {
          check.state = 'confirmed';
          done(null, payload);
        } else {
          check.state = 'refused';
          done(null, refuse(request, reply, payload));
        }
      },
      (error: unknown) => {
        // The row could not be read (the database is unreachable): nothing the handler produced
        // leaves unchecked. An error answer carries nothing and stays as it is.
        request.log.error({ err: error }, 'session check failed');
        done(
          null,
          reply.statusCode >= 500 ? payload : replace(reply, payload, 503, UNAVAILABLE_BODY),
        );
      },
    );
  });
};

export default fp(authGate, { name: 'auth-gate', dependencies: ['token-claims'] });
