import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { isHealthPath } from './api-paths.js';

export interface HttpsRedirectOptions {
  /** The public origin; redirects go there, never to a client-supplied Host. */
  publicBaseUrl: URL;
}

/**
 * service-spec §5.6: plain HTTP is answered with 301 to HTTPS. `request.protocol` honours
 * X-Forwarded-Proto only from a trusted proxy. Health probes stay reachable over HTTP so that
 * load balancers can probe the instance directly.
 */
const httpsRedirect: FastifyPluginAsync<HttpsRedirectOptions> = async (app, { publicBaseUrl }) => {
  const origin = `https://${publicBaseUrl.host}`;
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https' || isHealthPath(request.url)) return;
    return reply.code(301).header('location', `${origin}${request.url}`).send();
  });
};

export default fp(httpsRedirect, { name: 'https-redirect' });
