import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { registerEntitiesView } from '../../../contracts/dora-register.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { RegisterService } from './register.service.js';

/** The register of information (docs/decisions/0139-dora-ict-incidents.md). */
export const registerRoutes: FastifyPluginAsyncZod<{ register: RegisterService }> = async (
  app,
  { register },
) => {
  app.route({
    ...routeOf(apiRoutes.registerOfInformation.entities),
    config: { action: 'ict_register.export' },
    schema: {
      summary:
        'The entities the register of information names, the firm (B_01.01) and its schemes within DORA (B_01.02), each with its LEI or null while none is given.',
      tags: ['dora'],
      response: { 200: registerEntitiesView, 403: errorBody },
    },
    handler: async (request) => register.entities(actorOf(request)),
  });
  app.route({
    ...routeOf(apiRoutes.registerOfInformation.export),
    config: { action: 'ict_register.export' },
    schema: {
      summary:
        "The firm's register of information under DORA Art. 28(3), a ZIP of one CSV file a template of ITS (EU) 2024/2956 (B_01.01 to B_99.01), each headed by the annex's column codes: the platform as the direct ICT provider, its vendors as subcontractors, and the firm's other ICT providers. 409 while the platform's operator or a vendor in use is not named in configuration.",
      tags: ['dora'],
      produces: ['application/zip'],
      response: {
        200: z.unknown().describe('application/zip: B_01.01.csv … B_99.01.csv.'),
        403: errorBody,
        409: errorBody,
      },
    },
    handler: async (request, reply) => {
      const file = await register.export(actorOf(request));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  });
};
