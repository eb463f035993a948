import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import {
  dataRequestCompletion,
  dataRequestExtension,
  dataRequestInput,
  dataRequestQuery,
  dataRequestRefusal,
  dataRequestView,
} from '../../../contracts/data-requests.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { memberParams as idParams } from '../members/index.js';
import type { DataRequestsService } from './data-requests.service.js';

const errors = { 400: errorBody, 403: errorBody, 404: errorBody };
const stepErrors = { ...errors, 409: errorBody };

/**
 * The data-subject requests register (docs/decisions/0137-data-subject-requests.md). Thin: each
 * route names its action and hands the request to its service.
 */
export const dataRequestsRoutes: FastifyPluginAsyncZod<{
  dataRequests: DataRequestsService;
}> = async (app, { dataRequests }) => {
  const tags = ['gdpr'];

  app.route({
    ...routeOf(apiRoutes.dataRequests.create),
    config: { action: 'data_request.create' },
    schema: {
      summary:
        "Record a request a member made under the GDPR (access, rectification, erasure, restriction or objection) and the day it was received: due one month later (Art. 12(3)). A member makes their own, received today, with no day or today's; a second of a kind while the first is with the firm is a 409. Audited.",
      tags,
      body: dataRequestInput,
      response: { 201: dataRequestView, ...stepErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await dataRequests.record(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.dataRequests.list),
    config: { action: 'data_request.list' },
    schema: {
      summary:
        "The firm's data-subject requests, the earliest due first, each with its clock; one status with `?status=`.",
      tags,
      querystring: dataRequestQuery,
      response: { 200: pageOf(dataRequestView), ...errors },
    },
    handler: async (request) => dataRequests.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.dataRequests.get),
    config: { action: 'data_request.read' },
    schema: {
      summary: 'One data-subject request, with its due day, its clock and how it was answered.',
      tags,
      params: idParams,
      response: { 200: dataRequestView, ...errors },
    },
    handler: async (request) => dataRequests.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.dataRequests.extend),
    config: { action: 'data_request.extend' },
    schema: {
      summary:
        'Extend a request by two months, once, on or before its first due day, with what the person was told (Art. 12(3)). Audited.',
      tags,
      params: idParams,
      body: dataRequestExtension,
      response: { 200: dataRequestView, ...stepErrors },
    },
    handler: async (request) =>
      dataRequests.extend(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.dataRequests.complete),
    config: { action: 'data_request.complete' },
    schema: {
      summary: 'Record that a request was answered, today, with a note if given. Audited.',
      tags,
      params: idParams,
      body: dataRequestCompletion,
      response: { 200: dataRequestView, ...stepErrors },
    },
    handler: async (request) =>
      dataRequests.complete(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.dataRequests.refuse),
    config: { action: 'data_request.refuse' },
    schema: {
      summary:
        'Refuse a request on a ground from the list (GDPR Art. 17(3)(b), Art. 17(3)(e) or Art. 12(5)), with the reason. Audited.',
      tags,
      params: idParams,
      body: dataRequestRefusal,
      response: { 200: dataRequestView, ...stepErrors },
    },
    handler: async (request) =>
      dataRequests.refuse(actorOf(request), request.params.id, request.body),
  });
};
