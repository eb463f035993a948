import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../http/http-error.js';
import { pageOf } from '../../http/pagination.js';
import { actorOf } from '../../tenancy/request-context.js';
import { auditQuery, auditRecordView } from './audit.schemas.js';
import type { AuditReadService } from './audit.service.js';

export const auditRoutes: FastifyPluginAsyncZod<{ auditRead: AuditReadService }> = async (
  app,
  { auditRead },
) => {
  app.get(
    '/api/audit',
    {
      schema: {
        summary:
          'Read the audit log, newest first: every tenant for SuperAdmin, the own tenant for BrokerAdmin.',
        tags: ['audit'],
        querystring: auditQuery,
        response: { 200: pageOf(auditRecordView), 400: errorBody, 403: errorBody },
      },
    },
    async (request) => auditRead.list(actorOf(request), request.query),
  );
};
