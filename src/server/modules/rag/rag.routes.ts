import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { ingestAnswer, ingestRequest, MAX_INGEST_BODY_BYTES } from '../../../contracts/rag.js';
import { UPLOAD_BODY_DEADLINE_MS } from '../../platform/http/body-deadline.js';
import { routeOf } from '../../platform/http/route-of.js';
import { SYSTEM_ACTOR } from '../auth/index.js';
import type { CorpusIngest } from './ingest.service.js';

export const RAG_INGEST_PATH = apiRoutes.machines.ragIngest.path;

export interface RagRoutesOptions {
  ingest: CorpusIngest;
}

const errorAnswer = z.object({ error: z.string() });

/**
 * `POST /api/rag/ingest` (docs/corpus.md; docs/decisions/0069-regulatory-corpus-and-retrieval.md):
 * public regulatory text into the shared corpus. No session: the caller is an operator's tool
 * holding RAG_INGEST_SECRET, checked before the body is read by the prefix gate that guards every
 * target under `/api/rag/` (http/bearer-gate.ts, bearerPrefixGates). The web UI never calls it, and
 * a session cookie alone is not let in. Bodies may be as large as one official text
 * (MAX_INGEST_BODY_BYTES) and take as long to arrive as an upload; the route has its own rate limit
 * (http/rate-limits.ts).
 */
export const ragRoutes: FastifyPluginAsyncZod<RagRoutesOptions> = async (app, { ingest }) => {
  app.route({
    ...routeOf(apiRoutes.machines.ragIngest),
    schema: {
      tags: ['rag'],
      summary: 'Add or replace documents of the regulatory corpus',
      description:
        'For operators: `Authorization: Bearer <RAG_INGEST_SECRET>`, no session. A document already stored with the same content is skipped; a new version of a source replaces its chunks.',
      body: ingestRequest,
      response: { 200: ingestAnswer, 401: errorAnswer, 429: errorAnswer },
    },
    bodyLimit: MAX_INGEST_BODY_BYTES,
    config: { bodyDeadlineMs: UPLOAD_BODY_DEADLINE_MS },
    handler: async (request) => {
      const actor = {
        ...SYSTEM_ACTOR,
        userId: 'rag-ingest',
        ipAddress: request.ip,
        userAgent: request.headers['user-agent'] ?? 'unknown',
      };
      return ingest.ingest(actor, request.body.documents);
    },
  });
};
