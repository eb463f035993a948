import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import type { Database } from '../../platform/db/database.js';
import { isSchemaCurrent } from '../../platform/db/migrator.js';
import { pingDatabase, withinTimeout } from '../../platform/db/probe.js';
import { routeOf } from '../../platform/http/route-of.js';

/** Probes answer fast or not at all: a load balancer must not pile up waiting requests. */
const PROBE_TIMEOUT_MS = 2_000;

const okBody = z.object({ status: z.literal('ok') });
const unavailableBody = z.object({ status: z.literal('unavailable'), error: z.string() });
const UNAVAILABLE = { status: 'unavailable', error: 'Service unavailable' } as const;

export interface HealthRoutesOptions {
  database: Database;
}

/**
 * Liveness, readiness and database probes (docs/deployment.md, "Production shape"). They never
 * carry connection strings, variable names or stack traces: the body is either ok or unavailable.
 * Each probe asks the database afresh, so they recover by themselves when it comes back.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { database },
) => {
  const probeResponses = { 200: okBody, 503: unavailableBody };

  app.route({
    ...routeOf(apiRoutes.health.live),
    schema: { tags: ['health'], response: { 200: okBody } },
    handler: async () => ({ status: 'ok' as const }),
  });

  app.route({
    ...routeOf(apiRoutes.health.db),
    schema: { tags: ['health'], response: probeResponses },
    handler: async (request, reply) => {
      try {
        await pingDatabase(database, PROBE_TIMEOUT_MS);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database probe failed');
        return reply.code(503).send(UNAVAILABLE);
      }
    },
  });

  app.route({
    ...routeOf(apiRoutes.health.ready),
    schema: { tags: ['health'], response: probeResponses },
    handler: async (request, reply) => {
      try {
        const current = await withinTimeout(isSchemaCurrent(database), PROBE_TIMEOUT_MS);
        if (current) return { status: 'ok' as const };
        request.log.warn('readiness: migrations are not all applied');
      } catch (error) {
        request.log.warn({ err: error }, 'readiness probe failed');
      }
      return reply.code(503).send(UNAVAILABLE);
    },
  });
};
