import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { ConflictsService } from './conflicts.service.js';
import {
  conflictChange,
  conflictInput,
  conflictView,
  idParams,
  pageQuery,
} from './governance.schemas.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
// A PRSA or a contract RAC keeps no register: a new entry under one is refused with a 409.
const createErrors = { ...readErrors, 409: errorBody };

/**
 * A scheme's register of conflicts of interest (guidance: the Pensions Authority's Code of
 * Practice for trustees). Thin: each route names its action and hands the request to its service.
 */
export const conflictsRoutes: FastifyPluginAsyncZod<{ conflicts: ConflictsService }> = async (
  app,
  { conflicts },
) => {
  const tags = ['governance'];

  app.route({
    ...routeOf(apiRoutes.conflicts.listOfScheme),
    config: { action: 'conflict.list' },
    schema: {
      summary: "A scheme's conflicts of interest, the latest recorded first, closed ones included.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(conflictView), ...readErrors },
    },
    handler: async (request) =>
      conflicts.listConflicts(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.conflicts.create),
    config: { action: 'conflict.create' },
    schema: {
      summary:
        'Record a conflict of interest declared: who has the interest, what it is, and how it is managed.',
      tags,
      params: idParams,
      body: conflictInput,
      response: { 201: conflictView, ...createErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await conflicts.recordConflict(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.conflicts.get),
    config: { action: 'conflict.read' },
    schema: {
      summary: 'A conflict of interest of the register.',
      tags,
      params: idParams,
      response: { 200: conflictView, ...readErrors },
    },
    handler: async (request) => conflicts.readConflict(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.conflicts.update),
    config: { action: 'conflict.update' },
    schema: {
      summary:
        'Record how a conflict of interest is managed, or close it: it stays in the register.',
      tags,
      params: idParams,
      body: conflictChange,
      response: { 200: conflictView, ...readErrors },
    },
    handler: async (request) =>
      conflicts.updateConflict(actorOf(request), request.params.id, request.body),
  });
};
