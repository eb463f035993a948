import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import {
  erasureAnswer,
  memberRetentionView,
  restrictionInput,
} from '../../../contracts/retention.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { memberParams as idParams } from '../members/index.js';
import type { ErasureService } from './erasure.service.js';

const errors = { 400: errorBody, 403: errorBody, 404: errorBody };
const stepErrors = { ...errors, 409: errorBody };

/**
 * Retention, restriction and erasure (docs/decisions/0149-retention-and-erasure.md). Thin: each
 * route names its action and hands the request to its service.
 */
export const erasureRoutes: FastifyPluginAsyncZod<{ erasure: ErasureService }> = async (
  app,
  { erasure },
) => {
  const tags = ['gdpr'];

  app.route({
    ...routeOf(apiRoutes.dataRequests.erase),
    config: { action: 'data_request.erase' },
    schema: {
      summary:
        'Carry out an erasure request (Art. 17): erase what the retention schedule no longer requires, and refuse the rest with its rule and the day it ends (Art. 17(3)(b)). The request is completed, or refused where everything must be kept. Audited; recorded in the erasure ledger.',
      tags,
      params: idParams,
      response: { 200: erasureAnswer, ...stepErrors },
    },
    handler: async (request) => erasure.eraseForRequest(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.retention.get),
    config: { action: 'member.retention.read' },
    schema: {
      summary:
        "How long each part of a member's record is kept, from which event and on whose authority; the restriction in force and what was erased.",
      tags,
      params: idParams,
      response: { 200: memberRetentionView, ...errors },
    },
    handler: async (request) => erasure.retention(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.retention.restrict),
    config: { action: 'member.restrict' },
    schema: {
      summary:
        "Restrict a member's data while it is disputed (Art. 18(1)): kept, shown as restricted, and not erased by the retention job. Audited.",
      tags,
      params: idParams,
      body: restrictionInput,
      response: { 200: memberRetentionView, ...stepErrors },
    },
    handler: async (request) => erasure.restrict(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.retention.lift),
    config: { action: 'member.restrict' },
    schema: {
      summary: "Lift the restriction of a member's data. Audited.",
      tags,
      params: idParams,
      response: { 200: memberRetentionView, ...stepErrors },
    },
    handler: async (request) => erasure.lift(actorOf(request), request.params.id),
  });
};
