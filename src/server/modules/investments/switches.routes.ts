import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { idParams, switchInput, switchListQuery, switchView } from './investments.schemas.js';
import type { SwitchesService } from './switches.service.js';

/** Switches of what a member holds (docs/decisions/0127-dc-money.md). */
export const switchesRoutes: FastifyPluginAsyncZod<{ switches: SwitchesService }> = async (
  app,
  { switches },
) => {
  const tags = ['investments'];
  app.route({
    ...routeOf(apiRoutes.switches.request),
    config: { action: 'fund_switch.request' },
    schema: {
      summary:
        'Switch everything a member holds into open funds of their scheme, by whole percent: accepted as pending, carried out as the prices come in. One pending at a time (409).',
      tags,
      params: idParams,
      body: switchInput,
      response: { 202: switchView, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request, reply) =>
      reply
        .code(202)
        .send(await switches.request(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.switches.listOfMember),
    config: { action: 'fund_switch.list' },
    schema: {
      summary: 'A member’s switches, the latest asked for first.',
      tags,
      params: idParams,
      querystring: switchListQuery,
      response: { 200: pageOf(switchView), 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      switches.listOfMember(actorOf(request), request.params.id, request.query),
  });
};
