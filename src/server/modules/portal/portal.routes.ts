import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../http/http-error.js';
import { actorOf } from '../../tenancy/request-context.js';
import { contactChange, contactView, memberSummary, portalParams } from './portal.schemas.js';
import type { PortalService } from './portal.service.js';

export const portalRoutes: FastifyPluginAsyncZod<{ portal: PortalService }> = async (
  app,
  { portal },
) => {
  const tags = ['members'];
  app.get(
    '/api/members/:id/summary',
    {
      config: { action: 'member.read' },
      schema: {
        summary:
          "A member's pension at a glance: scheme, employer and what has been paid in, all time and this tax year, by kind.",
        tags,
        params: portalParams,
        response: { 200: memberSummary, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => portal.summary(actorOf(request), request.params.id),
  );
  app.patch(
    '/api/members/:id/contact',
    {
      config: { action: 'member.contact.update' },
      schema: {
        summary: 'The member changes their own e-mail or postal address.',
        tags,
        params: portalParams,
        body: contactChange,
        response: { 200: contactView, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => portal.updateContact(actorOf(request), request.params.id, request.body),
  );
  app.get(
    '/api/members/:id/export.csv',
    {
      config: { action: 'member.export', alsoChecks: ['contribution.notes.read'] },
      schema: {
        summary: 'The member’s data as a CSV file to read in a spreadsheet (GDPR Art. 15 and 20).',
        tags,
        params: portalParams,
        response: { 200: z.string(), 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const csv = await portal.exportCsv(actorOf(request), request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="my-pension-data.csv"')
        .send(csv);
    },
  );
};
