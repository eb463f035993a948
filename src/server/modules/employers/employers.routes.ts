import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf, pageQuery } from '../../../contracts/pages.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  employerChange,
  employerInput,
  employerParams,
  employerView,
} from './employers.schemas.js';
import type { EmployersService } from './employers.service.js';

export const employersRoutes: FastifyPluginAsyncZod<{ employers: EmployersService }> = async (
  app,
  { employers },
) => {
  const tags = ['employers'];
  app.route({
    ...routeOf(apiRoutes.employers.create),
    config: { action: 'employer.create' },
    schema: {
      summary: "Create an employer in the actor's tenant, with any of its details.",
      tags,
      body: employerInput,
      response: { 201: employerView, 400: errorBody, 403: errorBody },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await employers.create(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.employers.list),
    config: { action: 'employer.list' },
    schema: {
      summary: 'List employers within reach (an employer role sees its own).',
      tags,
      querystring: pageQuery,
      response: { 200: pageOf(employerView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => employers.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.employers.get),
    config: { action: 'employer.read' },
    schema: {
      summary: 'Read an employer within reach.',
      tags,
      params: employerParams,
      response: { 200: employerView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => employers.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.employers.update),
    config: { action: 'employer.update' },
    schema: {
      summary:
        "Change an employer's name or details; a detail sent as null is cleared. The audit record keeps no value of its contact, address or Revenue number.",
      tags,
      params: employerParams,
      body: employerChange,
      response: { 200: employerView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => employers.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.employers.remove),
    config: { action: 'employer.delete' },
    schema: {
      summary: 'Soft-delete an employer that has no live schemes.',
      tags,
      params: employerParams,
      response: { 204: noContent, 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request, reply) => {
      await employers.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
};
