import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { originFormOf, routedPathOf } from './api-paths.js';

export interface HttpsRedirectOptions {
  /** The public origin; redirects go there, never to a client-supplied Host. */
  publicBaseUrl: URL;
}

/**
 * Plain HTTP is answered with 301 to HTTPS (docs/api.md, "HTTPS and headers"). `request.protocol`
 * honours X-Forwarded-Proto only from a trusted proxy. Health probes stay reachable over HTTP so
 * that load balancers can probe the instance directly. The redirect keeps the target's path and
 * query: an absolute-form target (`GET http://any-host/x`) goes to `/x` on the public origin, and a
 * target with no path (`*`) to its root.
 */
const httpsRedirect: FastifyPluginAsync<HttpsRedirectOptions> = async (app, { publicBaseUrl }) => {
  const origin = `https://${publicBaseUrl.host}`;
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https' || routedPathOf(request).health) return;
    const target = originFormOf(request.url) ?? '/';
    return reply.code(301).header('location', `${origin}${target}`).send();
  });
};

export default fp(httpsRedirect, { name: 'https-redirect' });
