import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { DashboardService } from './dashboard.service.js';
import { dashboardView, overviewView } from './overview.schemas.js';
import type { OverviewService } from './overview.service.js';
import type { PortfolioService } from './portfolio.service.js';

export const overviewRoutes: FastifyPluginAsyncZod<{
  overview: OverviewService;
  dashboard: DashboardService;
  portfolio: PortfolioService;
}> = async (app, { overview, dashboard, portfolio }) => {
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
  app.route({
    ...routeOf(apiRoutes.portfolio.employers),
    config: { action: 'employer.list', alsoChecks: ['compliance.dashboard'] },
    schema: {
      summary:
        'The employers within reach, each with its schemes, members, the worst governance standing among its schemes and the latest pay period received, in one answer (docs/decisions/0144-portfolio-lists.md).',
      tags: ['overview'],
      response: { 200: apiRoutes.portfolio.employers.answer, 403: errorBody },
    },
    handler: async (request) => portfolio.employers(actorOf(request)),
  });
  app.route({
    ...routeOf(apiRoutes.portfolio.schemes),
    config: { action: 'scheme.list', alsoChecks: ['compliance.dashboard'] },
    schema: {
      summary:
        'The schemes within reach, of one employer with `employerId`, each with its members, its governance standing and the latest pay period received, in one answer (docs/decisions/0144-portfolio-lists.md).',
      tags: ['overview'],
      querystring: apiRoutes.portfolio.schemes.query,
      response: { 200: apiRoutes.portfolio.schemes.answer, 400: errorBody, 403: errorBody },
    },
    handler: async (request) => portfolio.schemes(actorOf(request), request.query),
  });
};
