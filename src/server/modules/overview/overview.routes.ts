import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { overviewView } from './overview.schemas.js';
import type { OverviewService } from './overview.service.js';

export const overviewRoutes: FastifyPluginAsyncZod<{ overview: OverviewService }> = async (
  app,
  { overview },
) => {
  app.route({
    ...routeOf(apiRoutes.overview.get),
    config: { action: 'overview.read' },
    schema: {
      summary:
        'The work waiting for the signed-in person: the schemes that need attention, recent uploads and (for an employer) the members that need attention, within their reach.',
      tags: ['overview'],
      response: { 200: overviewView, 403: errorBody },
    },
    handler: async (request) => overview.read(actorOf(request)),
  });
};
