import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { UPLOAD_BODY_DEADLINE_MS } from '../../platform/http/body-deadline.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { csvBody } from '../../platform/uploads/csv-upload.js';
import { answerCsvUpload } from '../../platform/uploads/csv-upload-answer.js';
import type { ImportKindName } from '../../platform/uploads/import-kind.js';
import {
  importParams,
  importQuery,
  importRejection,
  importSummary,
  importView,
  schemeImportsQuery,
} from './imports.schemas.js';
import { IMPORT_ACTIONS, type ImportsService } from './imports.service.js';

const UPLOADS: Record<ImportKindName, string> = {
  members:
    'Import members into a scheme from CSV (docs/imports.md): all rows or none; a 400 lists every bad row by line.',
  contributions:
    'Import contributions of a scheme’s members from CSV (docs/imports.md): all rows or none; a 400 lists every bad row by line.',
};

export const importsRoutes: FastifyPluginAsyncZod<{ imports: ImportsService }> = async (
  app,
  { imports },
) => {
  // These routes take CSV only, handed over as the stream it arrives as: a file is never held in
  // memory whole, and the service enforces the 25 MiB limit as it reads. Other bodies get 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  app.addHook('onReady', () => imports.removeStaleSpoolFiles());

  const tags = ['imports'];
  for (const kind of Object.keys(UPLOADS) as ImportKindName[]) {
    app.route({
      ...routeOf(apiRoutes.imports[kind]),
      // The file is spooled to disk before the import's first transaction: the session is
      // checked before any of it is read (auth-gate.plugin.ts; docs/decisions/0060-request-path-one-round-trip.md).
      config: {
        bodyDeadlineMs: UPLOAD_BODY_DEADLINE_MS,
        action: IMPORT_ACTIONS[kind],
        confirmSessionFirst: true,
      },
      schema: {
        summary: UPLOADS[kind],
        tags,
        consumes: ['text/csv'],
        params: importParams,
        querystring: importQuery,
        body: csvBody,
        response: {
          201: importView,
          400: importRejection,
          403: errorBody,
          404: errorBody,
          409: errorBody,
          413: errorBody,
          415: errorBody,
          429: errorBody,
        },
      },
      handler: async (request, reply) => {
        // Once the body is in, the connection stays silent while the rows are written in one
        // transaction, which for a large file lasts longer than an idle connection may.
        // (A request injected in-process has no real socket to set.)
        return answerCsvUpload(request, reply, request.query.fileName, async (body) => {
          const result = await imports.importFile(actorOf(request), {
            schemeId: request.params.id,
            kind,
            ...body,
          });
          return result.status === 'succeeded'
            ? { status: result.status, stored: result.import }
            : result;
        });
      },
    });
  }

  app.route({
    ...routeOf(apiRoutes.imports.listOfScheme),
    config: { action: 'import.list' },
    schema: {
      summary: "A scheme's imports, newest first.",
      tags,
      params: importParams,
      querystring: schemeImportsQuery,
      response: { 200: pageOf(importSummary), 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => imports.list(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.imports.get),
    config: { action: 'import.read' },
    schema: {
      summary:
        'One import: its status, progress while it runs (rows read, updated every few thousand rows) and its issues.',
      tags,
      params: importParams,
      response: { 200: importView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => imports.get(actorOf(request), request.params.id),
  });
};
