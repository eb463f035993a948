import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { auditFilters, auditQuery, auditRecordView } from './audit.schemas.js';
import { type AuditReadService, MAX_EXPORT_ROWS } from './audit.service.js';
import { exportFileName } from './audit-csv.rules.js';

export const auditRoutes: FastifyPluginAsyncZod<{ auditRead: AuditReadService }> = async (
  app,
  { auditRead },
) => {
  app.route({
    ...routeOf(apiRoutes.audit.list),
    config: { action: 'audit.read' },
    schema: {
      summary:
        'Read the audit log within reach, newest first. Each record carries its action in words and the names of who acted and what was affected, resolved when read.',
      tags: ['audit'],
      querystring: auditQuery,
      response: { 200: pageOf(auditRecordView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => auditRead.list(actorOf(request), request.query),
  });

  app.route({
    ...routeOf(apiRoutes.audit.exportCsv),
    config: { action: 'audit.export' },
    schema: {
      summary: `Export the audit log as CSV with the same filters, newest first, at most ${MAX_EXPORT_ROWS} records (more is refused with 400: narrow the filters). Cells a spreadsheet would read as a formula are prefixed with a quote. Audited as audit.exported.`,
      tags: ['audit'],
      querystring: auditFilters,
      produces: ['text/csv'],
      response: {
        200: z.string().describe('RFC 4180 CSV, UTF-8 with a byte-order mark, CRLF line ends.'),
        400: errorBody,
        403: errorBody,
      },
    },
    handler: async (request, reply) => {
      const { csv } = await auditRead.exportCsv(actorOf(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(new Date())}"`)
        .send(csv);
    },
  });
};
