import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { logSecurityEvent } from '../../platform/http/security-events.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { idParams } from '../documents/index.js';
import { DocumentIntegrityError, type EvidencePackService } from './evidence-pack.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };

/** A scheme's evidence pack for the Pensions Authority (docs/decisions/0065-evidence-pack.md). */
export const evidencePackRoutes: FastifyPluginAsyncZod<{
  evidencePack: EvidencePackService;
}> = async (app, { evidencePack }) => {
  const tags = ['documents'];
  app.route({
    ...routeOf(apiRoutes.documents.evidencePack),
    config: { action: 'scheme.evidence_pack' },
    schema: {
      summary:
        "The scheme's evidence pack, a ZIP streamed as it is made: summary.pdf (tagged), the current version of each servable document under documents/<type in words>/, and manifest.json with each file's SHA-256 and the head of the audit chain.",
      tags,
      produces: ['application/zip'],
      params: idParams,
      response: {
        200: z
          .unknown()
          .describe(
            'application/zip, streamed (chunked): summary.pdf, documents/<type in words>/<filename>, manifest.json.',
          ),
        ...readErrors,
      },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const pack = await evidencePack.generate(actor, request.params.id);
      // Headers are sent by now: a document that fails its SHA-256 check can only cut the archive
      // short (no central directory, so no unzip tool accepts it). The event names ids only.
      pack.stream.on('error', (error) => {
        if (error instanceof DocumentIntegrityError) {
          logSecurityEvent(request.log, 'document.integrity_failed', {
            userId: actor.userId,
            reason: `document ${error.documentId} version ${error.version}: stored bytes differ from the recorded SHA-256`,
          });
        }
      });
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${pack.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(pack.stream);
    },
  });
};
