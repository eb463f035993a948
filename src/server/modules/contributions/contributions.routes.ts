import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  adjustmentInput,
  contributionInput,
  contributionListQuery,
  contributionView,
  idParams,
} from './contributions.schemas.js';
import type { ContributionsService } from './contributions.service.js';

export const contributionsRoutes: FastifyPluginAsyncZod<{
  contributions: ContributionsService;
}> = async (app, { contributions }) => {
  const tags = ['contributions'];
  app.route({
    ...routeOf(apiRoutes.contributions.listOfMember),
    config: { action: 'contribution.list', alsoChecks: ['contribution.notes.read'] },
    schema: {
      summary: "A member's contributions, newest first, optionally between two pay periods.",
      tags,
      params: idParams,
      querystring: contributionListQuery,
      response: { 200: pageOf(contributionView), 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      contributions.listOfMember(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.contributions.create),
    config: { action: 'contribution.create' },
    schema: {
      summary: 'Record one contribution (member, pay period, kind).',
      tags,
      params: idParams,
      body: contributionInput,
      response: {
        201: contributionView,
        400: errorBody,
        403: errorBody,
        404: errorBody,
        409: errorBody,
      },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await contributions.create(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.contributions.adjust),
    config: { action: 'contribution.adjust' },
    schema: {
      summary:
        'Correct a contribution with a signed adjustment and its reason; the amount never goes below zero. Audited.',
      tags,
      params: idParams,
      body: adjustmentInput,
      response: { 201: contributionView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await contributions.adjust(actorOf(request), request.params.id, request.body)),
  });
};
