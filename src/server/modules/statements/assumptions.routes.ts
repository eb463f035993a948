import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { AssumptionsService } from './assumptions.service.js';
import {
  idParams,
  statementAssumptionsChange,
  statementAssumptionsInput,
  statementAssumptionsQuery,
  statementAssumptionsView,
} from './statements.schemas.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };

/**
 * Projection assumption sets (docs/decisions/0141-pension-benefit-statements.md). Thin: each
 * route names its action and hands the request to its service.
 */
export const assumptionsRoutes: FastifyPluginAsyncZod<{
  assumptions: AssumptionsService;
}> = async (app, { assumptions }) => {
  const tags = ['statements'];

  app.route({
    ...routeOf(apiRoutes.statementAssumptions.create),
    config: { action: 'statement_assumptions.create' },
    schema: {
      summary:
        'Add a projection assumption set with its source: SuperAdmin adds the platform’s, which every firm may use; the firm’s staff add its own. Giving a name again adds its next version. Audited.',
      tags,
      body: statementAssumptionsInput,
      response: { 201: statementAssumptionsView, 400: errorBody, 403: errorBody },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await assumptions.create(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.statementAssumptions.list),
    config: { action: 'statement_assumptions.list' },
    schema: {
      summary: 'The projection assumption sets: the platform’s and the firm’s own, oldest first.',
      tags,
      querystring: statementAssumptionsQuery,
      response: { 200: pageOf(statementAssumptionsView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => assumptions.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.statementAssumptions.get),
    config: { action: 'statement_assumptions.read' },
    schema: {
      summary: 'A projection assumption set, and whether a run has used it.',
      tags,
      params: idParams,
      response: { 200: statementAssumptionsView, ...readErrors },
    },
    handler: async (request) => assumptions.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.statementAssumptions.update),
    config: { action: 'statement_assumptions.update' },
    schema: {
      summary:
        'Correct a set no statement run has used; a used set is never changed (409): add a new version. Audited.',
      tags,
      params: idParams,
      body: statementAssumptionsChange,
      response: { 200: statementAssumptionsView, ...readErrors, 409: errorBody },
    },
    handler: async (request) =>
      assumptions.update(actorOf(request), request.params.id, request.body),
  });
};
