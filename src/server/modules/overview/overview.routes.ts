import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { DashboardService } from './dashboard.service.js';
import { dashboardView, overviewView } from './overview.schemas.js';
import type { OverviewService } from './overview.service.js';

export const overviewRoutes: FastifyPluginAsyncZod<{
  overview: OverviewService;
  dashboard: DashboardService;
}> = async (app, { overview, dashboard }) => {
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
  app.route({
    ...routeOf(apiRoutes.overview.dashboard),
    config: {
      action: 'overview.read',
      alsoChecks: [
        'employer.list',
        'scheme.list',
        'user.list',
        'compliance.dashboard',
        'auto_enrolment.overview',
        'audit.read',
        'data_request.list',
      ],
    },
    schema: {
      summary:
        "What the firm's dashboard shows, in one request: the work waiting, how many employers, schemes and accounts the person reaches, and (for whoever may read them) the schemes' governance, automatic enrolment, recent activity and the data-subject requests still to be answered.",
      tags: ['overview'],
      response: { 200: dashboardView, 403: errorBody },
    },
    handler: async (request) => dashboard.read(actorOf(request)),
  });
};
