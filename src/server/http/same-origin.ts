import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { logSecurityEvent } from '../auth/security-events.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SameOriginOptions {
  publicBaseUrl: URL;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * decisions.md §2: a state change carried by the session cookie must come from this service's
 * own pages. A browser names the page's origin in `Origin` (or at least says `Sec-Fetch-Site`);
 * it matches the public origin, or the Host the browser itself addressed. Any unsafe request
 * whose Origin names another site is refused too, which stops sign-in forgery.
 */
const sameOrigin: FastifyPluginAsync<SameOriginOptions> = async (app, { publicBaseUrl }) => {
  const isOwnOrigin = (request: FastifyRequest, origin: string) =>
    origin === publicBaseUrl.origin || originHost(origin) === request.headers.host;

  app.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method)) {
      done();
      return;
    }
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    const crossSite =
      origin !== undefined
        ? !isOwnOrigin(request, origin)
        : request.sessionSource === 'cookie' && fetchSite !== 'same-origin';
    if (crossSite) {
      logSecurityEvent(request.log, 'access.cross_origin_refused', {
        userId: request.session?.userId ?? null,
      });
      reply.code(403).send({ error: 'Forbidden' });
      return;
    }
    done();
  });
};

export default fp(sameOrigin, { name: 'same-origin', dependencies: ['auth-gate'] });
