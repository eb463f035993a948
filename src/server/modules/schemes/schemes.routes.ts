import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  schemeChange,
  schemeDetailView,
  schemeInput,
  schemeListQuery,
  schemeParams,
  schemeView,
} from './schemes.schemas.js';
import type { SchemesService } from './schemes.service.js';

export const schemesRoutes: FastifyPluginAsyncZod<{ schemes: SchemesService }> = async (
  app,
  { schemes },
) => {
  const tags = ['schemes'];
  app.route({
    ...routeOf(apiRoutes.schemes.create),
    config: { action: 'scheme.create' },
    schema: {
      summary:
        "Create a scheme under an employer of the actor's tenant: an employer out of reach, or none, is 403.",
      tags,
      body: schemeInput,
      response: { 201: schemeView, 400: errorBody, 403: errorBody },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await schemes.create(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.schemes.list),
    config: { action: 'scheme.list' },
    schema: {
      summary: 'List schemes within reach, optionally of one employer.',
      tags,
      querystring: schemeListQuery,
      response: { 200: pageOf(schemeView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => schemes.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.schemes.get),
    config: { action: 'scheme.read' },
    schema: {
      summary: 'Read a scheme within reach.',
      tags,
      params: schemeParams,
      response: { 200: schemeDetailView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => schemes.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.schemes.update),
    config: { action: 'scheme.update', alsoChecks: ['scheme.type.set', 'scheme.default_fund.set'] },
    schema: {
      summary:
        "Change a scheme's name, type or details; the type never changes once the scheme has members, and a detail sent as null is cleared.",
      tags,
      params: schemeParams,
      body: schemeChange,
      response: { 200: schemeDetailView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => schemes.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.schemes.remove),
    config: { action: 'scheme.delete' },
    schema: {
      summary:
        'Soft-delete a scheme made by mistake; one that has had members answers 409 and is wound up instead.',
      tags,
      params: schemeParams,
      response: { 204: noContent, 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request, reply) => {
      await schemes.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.schemes.windUp),
    config: { action: 'scheme.wind_up' },
    schema: {
      summary:
        'Wind a scheme up on a day for a reason: read only from then on, its governance duties ended. The note is kept with the scheme, never in the audit log.',
      tags,
      params: schemeParams,
      body: apiRoutes.schemes.windUp.body,
      response: {
        200: schemeDetailView,
        400: errorBody,
        403: errorBody,
        404: errorBody,
        409: errorBody,
      },
    },
    handler: async (request) => schemes.windUp(actorOf(request), request.params.id, request.body),
  });
};
