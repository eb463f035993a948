import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { MemberPageService } from './member-page.service.js';
import {
  contactChange,
  contactView,
  memberPageQuery,
  memberPageView,
  memberSummary,
  portalParams,
} from './portal.schemas.js';
import type { PortalService } from './portal.service.js';

export const portalRoutes: FastifyPluginAsyncZod<{
  portal: PortalService;
  memberPage: MemberPageService;
}> = async (app, { portal, memberPage }) => {
  const tags = ['members'];
  app.route({
    ...routeOf(apiRoutes.members.summary),
    config: { action: 'member.read' },
    schema: {
      summary:
        "A member's pension at a glance: scheme, employer and what has been paid in, all time and this tax year, by kind.",
      tags,
      params: portalParams,
      response: { 200: memberSummary, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => portal.summary(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.members.page),
    config: {
      action: 'member.read',
      alsoChecks: [
        'member.lifecycle.read',
        'member.dependants.read',
        'contribution.list',
        'contribution.notes.read',
        'fund_choice.list',
        'fund.list',
      ],
    },
    schema: {
      summary:
        'What the member page shows, in one request: the member, their pension at a glance, their membership (status, service, a leaver’s options, history and payouts), their newest fund choices, the funds to choose from (for whoever may choose), the first page of contributions and those of the chart.',
      tags,
      params: portalParams,
      querystring: memberPageQuery,
      response: { 200: memberPageView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => memberPage.read(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.members.updateContact),
    config: { action: 'member.contact.update' },
    schema: {
      summary: 'The member changes their own e-mail or postal address.',
      tags,
      params: portalParams,
      body: contactChange,
      response: { 200: contactView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      portal.updateContact(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.members.exportCsv),
    config: { action: 'member.export', alsoChecks: ['contribution.notes.read'] },
    schema: {
      summary: 'The member’s data as a CSV file to read in a spreadsheet (GDPR Art. 15 and 20).',
      tags,
      params: portalParams,
      response: { 200: z.string(), 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      const csv = await portal.exportCsv(actorOf(request), request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="my-pension-data.csv"')
        .send(csv);
    },
  });
  app.route({
    ...routeOf(apiRoutes.members.exportPdf),
    config: { action: 'member.export', alsoChecks: ['contribution.notes.read'] },
    schema: {
      summary:
        'The member’s data as a readable PDF, the same as the CSV in words (GDPR Art. 15). Audited.',
      tags,
      params: portalParams,
      response: { 200: z.instanceof(Buffer), 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      const pdf = await portal.exportPdf(actorOf(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="my-pension-data.pdf"')
        .send(pdf);
    },
  });
};
