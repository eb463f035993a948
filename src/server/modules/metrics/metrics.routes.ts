import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { bearerGate } from '../../platform/http/bearer-gate.js';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';
import { routeOf } from '../../platform/http/route-of.js';
import type { Metrics } from './metrics.service.js';

export const METRICS_PATH = apiRoutes.health.metrics.path;

export interface MetricsRoutesOptions {
  metrics: Metrics;
  /** METRICS_SECRET: the bearer a scraper must carry. */
  secret: string;
  store: RateLimitStore;
}

const errorAnswer = z.object({ error: z.string() });

/**
 * `GET /api/health/metrics` (docs/decisions/0077-metrics.md):
 * Prometheus's text exposition for an operator's scraper holding METRICS_SECRET, checked in the
 * route's own request hook through the shared bearer gate, as /api/cron and /api/rag/ingest do.
 * It lives under /api/health/ so that, like the probes, a scraper inside the cluster reaches it
 * without a session. Registered with fastify-plugin so its response hook counts every route of
 * the app, not only its own.
 */
const plugin: FastifyPluginAsyncZod<MetricsRoutesOptions> = async (
  app,
  { metrics, secret, store },
) => {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? null,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  const requireBearer = bearerGate({
    secret,
    store,
    counter: 'metrics',
    event: 'metrics.bearer_refused',
  });

  app.route({
    ...routeOf(apiRoutes.health.metrics),
    schema: {
      tags: ['health'],
      summary: 'Request, database, outbox and job metrics in Prometheus text format',
      description:
        'For operators: `Authorization: Bearer <METRICS_SECRET>`, no session. Labels hold route patterns, methods, status classes and job names only.',
      response: { 200: z.string(), 401: errorAnswer, 429: errorAnswer },
    },
    onRequest: requireBearer,
    handler: async (_request, reply) => {
      const body = await metrics.exposition();
      return reply.type(metrics.contentType).send(body);
    },
  });
};

export const metricsRoutes = fp(plugin, { name: 'metrics-routes' });
