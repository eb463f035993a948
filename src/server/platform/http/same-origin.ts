import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { logSecurityEvent } from './security-events.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SameOriginOptions {
  publicBaseUrl: URL;
}

/** The host of an Origin header; null when it is no URL (`null`, garbage), without a throw. */
function originHost(origin: string): string | null {
  return URL.parse(origin)?.host ?? null;
}

/**
 * A state change carried by the session cookie must come from this service's own pages
 * (docs/decisions/0016-same-origin-check.md). A browser names the page's origin in `Origin` (or at
 * least says `Sec-Fetch-Site`); it matches the public origin, or the Host the browser itself
 * addressed. Any unsafe request whose Origin names another site is refused too, which stops sign-in
 * forgery.
 */
const sameOrigin: FastifyPluginAsync<SameOriginOptions> = async (app, { publicBaseUrl }) => {
  const isOwnOrigin = (request: FastifyRequest, origin: string) =>
    origin === publicBaseUrl.origin || originHost(origin) === request.headers.host;

  const refuseCrossSite: onRequestHookHandler = (request, reply, done) => {
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
  };

  // On the routes that can change state only, after the gate (route hooks follow global ones):
  // reads never pay for the check, and a path no route serves changes nothing to protect.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => SAFE_METHODS.has(method))) return;
    route.onRequest = [route.onRequest ?? []].flat().concat(refuseCrossSite);
  });
};

export default fp(sameOrigin, { name: 'same-origin', dependencies: ['auth-gate'] });
