import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { rectificationInput, rectificationView } from '../../../contracts/rectification.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { memberParams as idParams } from '../members/index.js';
import type { RectificationService } from './rectification.service.js';

const errors = { 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/**
 * A rectification request's completion with the recipients told
 * (docs/decisions/0148-rectification-and-recipients.md). Thin: each route names its action and
 * hands the request to its service.
 */
export const rectificationRoutes: FastifyPluginAsyncZod<{
  rectification: RectificationService;
}> = async (app, { rectification }) => {
  const tags = ['gdpr'];

  app.route({
    ...routeOf(apiRoutes.rectification.get),
    config: { action: 'data_request.read' },
    schema: {
      summary:
        'A rectification request: the details recorded as corrected, the recipients told, and the recipients the service knows had the member’s data (GDPR Art. 19). 409 for a request of another kind.',
      tags,
      params: idParams,
      response: { 200: rectificationView, ...errors },
    },
    handler: async (request) => rectification.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.rectification.complete),
    config: { action: 'data_request.complete' },
    schema: {
      summary:
        'Complete a rectification request, today, naming the details corrected and the recipients of the old data told of it, each with the day (GDPR Art. 16 and 19). Audited: the details by name and the number of recipients.',
      tags,
      params: idParams,
      body: rectificationInput,
      response: { 200: rectificationView, ...errors },
    },
    handler: async (request) =>
      rectification.complete(actorOf(request), request.params.id, request.body),
  });
};
