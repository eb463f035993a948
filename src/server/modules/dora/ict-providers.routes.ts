import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  ictProviderInput,
  ictProviderQuery,
  ictProviderUpdate,
  ictProviderView,
  idParams,
} from './ict-incidents.schemas.js';
import type { IctProvidersService } from './ict-providers.service.js';

const errors = { 400: errorBody, 403: errorBody, 404: errorBody };

/**
 * The firm's register of its other ICT providers (docs/decisions/0139-dora-ict-incidents.md).
 * Thin: each route names its action and hands the request to its service.
 */
export const ictProvidersRoutes: FastifyPluginAsyncZod<{
  ictProviders: IctProvidersService;
}> = async (app, { ictProviders }) => {
  const tags = ['dora'];
  app.route({
    ...routeOf(apiRoutes.ictProviders.create),
    config: { action: 'ict_provider.create' },
    schema: {
      summary:
        "Add an ICT provider other than this platform to the firm's register (DORA Art. 28(3)): who it is, the ICT service type (S01 to S19 of ITS (EU) 2024/2956), the contract, and whether it supports a critical or important function. Audited.",
      tags,
      body: ictProviderInput,
      response: { 201: ictProviderView, ...errors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await ictProviders.create(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.ictProviders.list),
    config: { action: 'ict_provider.list' },
    schema: {
      summary: "The firm's ICT providers, the latest added first.",
      tags,
      querystring: ictProviderQuery,
      response: { 200: pageOf(ictProviderView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => ictProviders.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.ictProviders.update),
    config: { action: 'ict_provider.update' },
    schema: {
      summary:
        'Change an ICT provider in the register; an arrangement that ends is given its end date and kept. Audited.',
      tags,
      params: idParams,
      body: ictProviderUpdate,
      response: { 200: ictProviderView, ...errors },
    },
    handler: async (request) =>
      ictProviders.update(actorOf(request), request.params.id, request.body),
  });
};
