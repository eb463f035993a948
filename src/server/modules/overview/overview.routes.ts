import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../http/http-error.js';
import { actorOf } from '../../tenancy/request-context.js';
import { overviewView } from './overview.schemas.js';
import type { OverviewService } from './overview.service.js';

export const overviewRoutes: FastifyPluginAsyncZod<{ overview: OverviewService }> = async (
  app,
  { overview },
) => {
  app.get(
    '/api/overview',
    {
      config: { action: 'overview.read' },
      schema: {
        summary:
          'The work waiting for the signed-in person: the schemes that need attention, recent uploads and (for an employer) the members that need attention, within their reach.',
        tags: ['overview'],
        response: { 200: overviewView, 403: errorBody },
      },
    },
    async (request) => overview.read(actorOf(request)),
  );
};
