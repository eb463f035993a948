import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf, pageQuery } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { brokerInput, brokerLeiInput, brokerParams, brokerView } from './brokers.schemas.js';
import type { BrokersService } from './brokers.service.js';

export const brokersRoutes: FastifyPluginAsyncZod<{ brokers: BrokersService }> = async (
  app,
  { brokers },
) => {
  const tags = ['brokers'];
  app.route({
    ...routeOf(apiRoutes.brokers.create),
    config: { action: 'broker.create' },
    schema: {
      summary: 'Create a broker firm (a tenant).',
      tags,
      body: brokerInput,
      response: { 201: brokerView, 400: errorBody, 403: errorBody },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await brokers.create(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.brokers.list),
    config: { action: 'broker.list' },
    schema: {
      summary: 'List broker firms.',
      tags,
      querystring: pageQuery,
      response: { 200: pageOf(brokerView), 403: errorBody },
    },
    handler: async (request) => brokers.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.brokers.get),
    config: { action: 'broker.read' },
    schema: {
      summary: 'Read a broker firm.',
      tags,
      params: brokerParams,
      response: { 200: brokerView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => brokers.get(actorOf(request), request.params.brokerId),
  });
  app.route({
    ...routeOf(apiRoutes.brokers.update),
    config: { action: 'broker.update' },
    schema: {
      summary: 'Rename a broker firm.',
      tags,
      params: brokerParams,
      body: brokerInput,
      response: { 200: brokerView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      brokers.update(actorOf(request), request.params.brokerId, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.brokers.setLei),
    config: { action: 'broker.lei.set' },
    schema: {
      summary:
        "Set or clear (null) a broker firm's LEI, written in its register of information as the entity maintaining it (B_01.01 c0010).",
      tags,
      params: brokerParams,
      body: brokerLeiInput,
      response: { 200: brokerView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      brokers.setLei(actorOf(request), request.params.brokerId, request.body),
  });
};
