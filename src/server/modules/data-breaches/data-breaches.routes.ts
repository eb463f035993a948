import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  dataBreachClose,
  dataBreachInput,
  dataBreachQuery,
  dataBreachUpdate,
  dataBreachView,
  dpcNotificationInput,
  idParams,
  membersToldInput,
} from './data-breaches.schemas.js';
import type { DataBreachesService } from './data-breaches.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
const stepErrors = { ...readErrors, 409: errorBody };

/**
 * The firm's register of personal-data breaches (docs/decisions/0138-personal-data-breaches.md).
 * Thin: each route names its action and hands the request to its service.
 */
export const dataBreachesRoutes: FastifyPluginAsyncZod<{
  dataBreaches: DataBreachesService;
}> = async (app, { dataBreaches }) => {
  const tags = ['data-breaches'];

  app.route({
    ...routeOf(apiRoutes.dataBreaches.create),
    config: { action: 'data_breach.create' },
    schema: {
      summary:
        'Record a personal-data breach: what happened, when the firm became aware of it, the kinds of data, roughly how many people and how likely it is to risk them. Answers the deadline to notify the Data Protection Commission (72 hours after becoming aware, GDPR Art. 33(1)) and its clock. Audited.',
      tags,
      body: dataBreachInput,
      response: { 201: dataBreachView, ...readErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await dataBreaches.record(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.dataBreaches.list),
    config: { action: 'data_breach.list' },
    schema: {
      summary: "The firm's personal-data breaches, the latest recorded first, each with its clock.",
      tags,
      querystring: dataBreachQuery,
      response: { 200: pageOf(dataBreachView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => dataBreaches.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.dataBreaches.get),
    config: { action: 'data_breach.read' },
    schema: {
      summary: 'A personal-data breach with its deadline and clock.',
      tags,
      params: idParams,
      response: { 200: dataBreachView, ...readErrors },
    },
    handler: async (request) => dataBreaches.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.dataBreaches.update),
    config: { action: 'data_breach.update' },
    schema: {
      summary:
        'Change the assessment of a breach not yet closed: its title, description, when it happened, the kinds of data, how many people, the schemes and the risk. When the firm became aware of it is not changed. Audited.',
      tags,
      params: idParams,
      body: dataBreachUpdate,
      response: { 200: dataBreachView, ...stepErrors },
    },
    handler: async (request) =>
      dataBreaches.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.dataBreaches.notifyDpc),
    config: { action: 'data_breach.notify' },
    schema: {
      summary:
        'Record that the breach was notified to the Data Protection Commission, with its reference; after the 72 hours only with the reasons for the delay (GDPR Art. 33(1)). Once. Audited.',
      tags,
      params: idParams,
      body: dpcNotificationInput,
      response: { 200: dataBreachView, ...stepErrors },
    },
    handler: async (request) =>
      dataBreaches.notifyDpc(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.dataBreaches.membersTold),
    config: { action: 'data_breach.members_told' },
    schema: {
      summary:
        'Record when and how the people affected were told (GDPR Art. 34(1)). Once. Audited.',
      tags,
      params: idParams,
      body: membersToldInput,
      response: { 200: dataBreachView, ...stepErrors },
    },
    handler: async (request) =>
      dataBreaches.membersTold(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.dataBreaches.close),
    config: { action: 'data_breach.close' },
    schema: {
      summary:
        'Close a breach with its outcome: refused while a breach to be notified has not been; a breach unlikely to risk people is closed with the reasons in its outcome (GDPR Art. 33(5)). Audited.',
      tags,
      params: idParams,
      body: dataBreachClose,
      response: { 200: dataBreachView, ...stepErrors },
    },
    handler: async (request) =>
      dataBreaches.close(actorOf(request), request.params.id, request.body),
  });
};
