import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { TooLargeError } from '../../platform/errors.js';
import { UPLOAD_BODY_DEADLINE_MS } from '../../platform/http/body-deadline.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import type { UrlSigner } from '../../platform/storage/signed-urls.js';
import { actorOf, requestOrigin } from '../../platform/tenancy/request-context.js';
import {
  documentListQuery,
  documentUrlView,
  documentView,
  fileParams,
  idParams,
  multipartBody,
} from './documents.schemas.js';
import type { DocumentsService } from './documents.service.js';
import { attachmentDisposition } from './filenames.rules.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };

function declaredLength(header: string | undefined): number | null {
  const length = Number(header);
  return header !== undefined && Number.isSafeInteger(length) ? length : null;
}

/**
 * A scheme's documents (docs/decisions/0062-document-vault.md), and the one route outside /api that serves their bytes:
 * `/files/<documentId>/<token>`, where the signed token is the credential (no session; the session
 * gate covers /api only, and a file URL is handed to the browser's download, which carries no
 * bearer). Thin: each API route names its action and hands the request to the service.
 */
export const documentsRoutes: FastifyPluginAsyncZod<{
  documents: DocumentsService;
  signer: UrlSigner;
}> = async (app, { documents, signer }) => {
  // The upload is read as the stream it arrives as (never held in memory whole); the service
  // parses the form and enforces the 25 MiB limit as it reads. No route here takes JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('multipart/form-data', (_request, payload, done) => done(null, payload));
  const tags = ['documents'];

  app.route({
    ...routeOf(apiRoutes.documents.upload),
    config: { bodyDeadlineMs: UPLOAD_BODY_DEADLINE_MS, action: 'document.upload' },
    schema: {
      summary:
        'Upload a document (multipart: file, documentType, memberFacing?, title?). The same name again is a new version.',
      tags,
      consumes: ['multipart/form-data'],
      params: idParams,
      body: multipartBody,
      response: {
        201: documentView,
        ...readErrors,
        409: errorBody,
        413: errorBody,
        415: errorBody,
      },
    },
    handler: async (request, reply) => {
      try {
        const created = await documents.upload(actorOf(request), request.params.id, {
          body: request.body as Readable,
          contentType: request.headers['content-type'],
          declaredBytes: declaredLength(request.headers['content-length']),
        });
        return reply.code(201).send(created);
      } catch (error) {
        // The rest of an oversized body is never read: the connection cannot carry another
        // request after this answer.
        if (error instanceof TooLargeError) reply.header('connection', 'close');
        throw error;
      }
    },
  });

  app.route({
    ...routeOf(apiRoutes.documents.listOfScheme),
    config: { action: 'document.list' },
    schema: {
      summary:
        "A scheme's documents, newest first: the latest version of each name, or every version with allVersions=true.",
      tags,
      params: idParams,
      querystring: documentListQuery,
      response: { 200: pageOf(documentView), ...readErrors },
    },
    handler: async (request) => documents.list(actorOf(request), request.params.id, request.query),
  });

  app.route({
    ...routeOf(apiRoutes.documents.get),
    config: { action: 'document.read' },
    schema: {
      summary: 'A version of a document: its record, never its bytes.',
      tags,
      params: idParams,
      response: { 200: documentView, ...readErrors },
    },
    handler: async (request) => documents.read(actorOf(request), request.params.id),
  });

  app.route({
    ...routeOf(apiRoutes.documents.remove),
    config: { action: 'document.delete' },
    schema: {
      summary: 'Delete a version of a document (kept for the audit, hidden and never served).',
      tags,
      params: idParams,
      response: { 204: noContent, ...readErrors },
    },
    handler: async (request, reply) => {
      await documents.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...routeOf(apiRoutes.documents.url),
    config: { action: 'document.download' },
    schema: {
      summary:
        'A signed URL to download the document, valid 5 minutes (409 while it is not yet scanned or is quarantined).',
      tags,
      params: idParams,
      response: { 200: documentUrlView, ...readErrors, 409: errorBody },
    },
    handler: async (request) => documents.issueUrl(actorOf(request), request.params.id),
  });

  app.get(
    '/files/:documentId/:token',
    { schema: { hide: true, params: fileParams } },
    async (request, reply) => {
      const grant = signer.verify(request.params.token, request.params.documentId);
      if (grant === null) return reply.code(403).send({ error: 'Forbidden' });
      const file = await documents.download(grant, requestOrigin(request));
      if (file === null) return reply.code(404).send({ error: 'Not found' });
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', attachmentDisposition(file.filename))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
};
