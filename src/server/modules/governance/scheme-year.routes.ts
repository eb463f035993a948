import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  filingChange,
  filingInput,
  filingView,
  idParams,
  pageQuery,
  trusteeTrainingInput,
  trusteeTrainingView,
} from './governance.schemas.js';
import type { SchemeYearService } from './scheme-year.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
const writeErrors = { 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/**
 * The scheme year's registers (docs/decisions/0122-the-scheme-year.md): trustees' training and the
 * filings. Thin: each route names its action and hands the request to its service.
 */
export const schemeYearRoutes: FastifyPluginAsyncZod<{ schemeYear: SchemeYearService }> = async (
  app,
  { schemeYear },
) => {
  const tags = ['governance'];

  app.route({
    ...routeOf(apiRoutes.trusteeTraining.listOfTrustee),
    config: { action: 'trustee_training.list' },
    schema: {
      summary: "A trustee's training, the latest recorded first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(trusteeTrainingView), ...readErrors },
    },
    handler: async (request) =>
      schemeYear.listTraining(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.trusteeTraining.create),
    config: { action: 'trustee_training.create' },
    schema: {
      summary:
        'Record training a trustee completed; for a corporate trustee, name the director trained.',
      tags,
      params: idParams,
      body: trusteeTrainingInput,
      response: { 201: trusteeTrainingView, ...readErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await schemeYear.recordTraining(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.filings.listOfScheme),
    config: { action: 'filing.list' },
    schema: {
      summary: "A scheme's filings of its year, latest first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(filingView), ...readErrors },
    },
    handler: async (request) =>
      schemeYear.listFilings(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.filings.create),
    config: { action: 'filing.create' },
    schema: {
      summary:
        'Record an annual report, an annual scheme information return or an Annual Compliance Statement.',
      tags,
      params: idParams,
      body: filingInput,
      response: { 201: filingView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await schemeYear.recordFiling(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.filings.get),
    config: { action: 'filing.read' },
    schema: {
      summary: 'A filing of the scheme year, with the day it falls due.',
      tags,
      params: idParams,
      response: { 200: filingView, ...readErrors },
    },
    handler: async (request) => schemeYear.readFiling(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.filings.update),
    config: { action: 'filing.update' },
    schema: {
      summary: 'Complete a filing, correct its period, or say whether the report was audited.',
      tags,
      params: idParams,
      body: filingChange,
      response: { 200: filingView, ...writeErrors },
    },
    handler: async (request) =>
      schemeYear.updateFiling(actorOf(request), request.params.id, request.body),
  });
};
