import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  fundChange,
  fundChoiceInput,
  fundChoiceView,
  fundInput,
  fundListQuery,
  fundView,
  idParams,
} from './funds.schemas.js';
import type { FundsService } from './funds.service.js';

export const fundsRoutes: FastifyPluginAsyncZod<{ funds: FundsService }> = async (
  app,
  { funds },
) => {
  const tags = ['funds'];
  app.route({
    ...routeOf(apiRoutes.funds.listOfScheme),
    config: { action: 'fund.list' },
    schema: {
      summary: "A scheme's funds (open ones unless includeClosed=true).",
      tags,
      params: idParams,
      querystring: fundListQuery,
      response: { 200: pageOf(fundView), 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      funds.listOfScheme(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.funds.create),
    config: { action: 'fund.create' },
    schema: {
      summary: 'Offer a fund in a scheme.',
      tags,
      params: idParams,
      body: fundInput,
      response: { 201: fundView, 400: errorBody, 403: errorBody, 409: errorBody },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await funds.create(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.funds.update),
    config: { action: 'fund.update' },
    schema: {
      summary: 'Rename a fund, set its ISIN, or close it to new choices.',
      tags,
      params: idParams,
      body: fundChange,
      response: { 200: fundView, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request) => funds.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.funds.choices),
    config: { action: 'fund_choice.list' },
    schema: {
      summary: "A member's fund choices, newest first, the one in force today marked current.",
      tags,
      params: idParams,
      querystring: fundListQuery,
      response: { 200: pageOf(fundChoiceView), 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      funds.choicesOfMember(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.funds.setChoices),
    config: { action: 'fund_choice.set' },
    schema: {
      summary:
        "Change a member's fund choice (whole percentages summing to 100) from today or a later date.",
      tags,
      params: idParams,
      body: fundChoiceInput,
      response: { 200: fundChoiceView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => funds.choose(actorOf(request), request.params.id, request.body),
  });
};
