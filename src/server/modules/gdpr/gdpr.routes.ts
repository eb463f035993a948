import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { memberExport, memberParams } from '../members/index.js';
import type { MemberExportService } from './gdpr-export.service.js';

/** What a data subject may ask for about themselves (GDPR Arts 15 and 20), answered for a member. */
export const gdprRoutes: FastifyPluginAsyncZod<{ gdprExport: MemberExportService }> = async (
  app,
  { gdprExport },
) => {
  const tags = ['members'];
  app.route({
    ...routeOf(apiRoutes.members.export),
    config: { action: 'member.export', alsoChecks: ['contribution.notes.read'] },
    schema: {
      summary: 'Everything held about a member, as JSON (GDPR access and portability). Audited.',
      tags,
      params: memberParams,
      response: { 200: memberExport, 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      const data = await gdprExport.exportData(actorOf(request), request.params.id);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="member-${data.member.id}.json"`)
        .send(data);
    },
  });
};
