import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  idParams,
  lateRemittanceQuery,
  lateRemittanceReport,
  remittanceCalendar,
  remittanceQuery,
  remittanceReceiptInput,
  remittanceReceiptQuery,
  remittanceReceiptView,
  remittanceReceiptVoid,
} from './remittances.schemas.js';
import type { RemittancesService } from './remittances.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };

/**
 * Contribution remittance (docs/decisions/0136-contribution-remittance.md). Thin: each route names
 * its action and hands the request to its service.
 */
export const remittancesRoutes: FastifyPluginAsyncZod<{ remittances: RemittancesService }> = async (
  app,
  { remittances },
) => {
  const tags = ['contributions'];

  app.route({
    ...routeOf(apiRoutes.remittanceReceipts.create),
    config: { action: 'remittance_receipt.create' },
    schema: {
      summary:
        "Record a payment received from the employer for a month's deductions: the month, the day it arrived, the amount and the payment's reference. Audited.",
      tags,
      params: idParams,
      body: remittanceReceiptInput,
      response: { 201: remittanceReceiptView, ...readErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await remittances.recordReceipt(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.remittanceReceipts.listOfEmployer),
    config: { action: 'remittance_receipt.list' },
    schema: {
      summary:
        'The payments received from the employer, the latest received first; one month of deduction with `?month=`.',
      tags,
      params: idParams,
      querystring: remittanceReceiptQuery,
      response: { 200: pageOf(remittanceReceiptView), ...readErrors },
    },
    handler: async (request) =>
      remittances.listReceipts(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.remittanceReceipts.remove),
    config: { action: 'remittance_receipt.void' },
    schema: {
      summary:
        'Remove a payment recorded by mistake, with the reason: it is kept, marked removed, and counts no more. Audited.',
      tags,
      params: idParams,
      body: remittanceReceiptVoid,
      response: { 204: noContent, ...readErrors },
    },
    handler: async (request, reply) => {
      await remittances.voidReceipt(actorOf(request), request.params.id, request.body);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.remittances.ofEmployer),
    config: { action: 'remittance.read' },
    schema: {
      summary:
        "The employer's remittance calendar: for each month with anything deducted or received, what payroll says was deducted, what was received, the day it is due (21 days after the month's end) and whether it came on time. The 12 months to this one unless `from` and `to` say otherwise; at most 24.",
      tags,
      params: idParams,
      querystring: remittanceQuery,
      response: { 200: remittanceCalendar, ...readErrors },
    },
    handler: async (request) =>
      remittances.calendar(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.remittances.lateOfScheme),
    config: { action: 'late_remittance.list' },
    schema: {
      summary:
        "The trustees' late-payment report: the months of a calendar year (this one unless `year` says otherwise) in which the scheme's employer remitted late or has not remitted in full, with the days late.",
      tags,
      params: idParams,
      querystring: lateRemittanceQuery,
      response: { 200: lateRemittanceReport, ...readErrors },
    },
    handler: async (request) =>
      remittances.lateOfScheme(actorOf(request), request.params.id, request.query),
  });
};
