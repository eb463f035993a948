import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { idParams } from './contributions.schemas.js';
import {
  payrollInput,
  payrollParams,
  payrollSaved,
  payrollView,
  periodTotals,
  periodTotalsQuery,
} from './payroll-grid.schemas.js';
import type { PayrollService } from './payroll-grid.service.js';

export const payrollRoutes: FastifyPluginAsyncZod<{ payroll: PayrollService }> = async (
  app,
  { payroll },
) => {
  const tags = ['contributions'];
  app.route({
    ...routeOf(apiRoutes.payroll.get),
    config: { action: 'payroll.read' },
    schema: {
      summary:
        "One pay period of a whole scheme: every member's employee, employer and AVC contributions, with totals.",
      tags,
      params: payrollParams,
      response: { 200: payrollView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      payroll.read(actorOf(request), request.params.id, request.params.period),
  });
  app.route({
    ...routeOf(apiRoutes.payroll.save),
    config: { action: 'payroll.save' },
    schema: {
      summary:
        'Save one pay period of a whole scheme in one go: amounts not yet recorded are recorded, amounts recorded differently are corrected (with the reason given), all or nothing.',
      tags,
      params: payrollParams,
      body: payrollInput,
      response: {
        200: payrollSaved,
        400: errorBody,
        403: errorBody,
        404: errorBody,
        409: errorBody,
      },
    },
    handler: async (request) =>
      payroll.save(actorOf(request), request.params.id, request.params.period, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.payroll.periods),
    config: { action: 'payroll.periods.list' },
    schema: {
      summary:
        "A scheme's contributions per pay period, newest first, with totals by kind, corrections applied.",
      tags,
      params: idParams,
      querystring: periodTotalsQuery,
      response: { 200: periodTotals, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => payroll.periods(actorOf(request), request.params.id, request.query),
  });
};
