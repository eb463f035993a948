import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_BODY_DEADLINE_MS } from '../http/body-deadline.js';
import type { ImportIssue } from './import-issues.js';
import { PayloadTooLargeError } from './read-upload.js';
import { TooManyUploadsError, UploadRunningError } from './upload-slots.js';

/** What a CSV upload route hands its service: the body as it streams, its size and its name. */
export interface CsvUploadBody {
  upload: Readable;
  /** The Content-Length the client declared, when it did. */
  declaredBytes: number | null;
  /** The file's own name, as the uploader's computer called it, when the client said. */
  fileName: string | null;
}

export type CsvUploadOutcome =
  | { status: 'succeeded'; stored: unknown }
  | { status: 'rejected'; importId: string; issues: ImportIssue[]; issueCount: number };

function declaredLength(header: string | undefined): number | null {
  const length = Number(header);
  return header !== undefined && Number.isSafeInteger(length) ? length : null;
}

/**
 * The one answer of every CSV upload (the scheme imports, the employer's payroll; docs/imports.md):
 * the body gets the upload's deadline rather than the API's, all rows are stored (201 with what was
 * stored) or none (400 with every bad row by line, and the import's id for its record).
 */
export async function answerCsvUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  fileName: string | undefined,
  store: (body: CsvUploadBody) => Promise<CsvUploadOutcome>,
) {
  request.raw.socket.setTimeout?.(UPLOAD_BODY_DEADLINE_MS);
  try {
    const result = await store({
      upload: request.body as Readable,
      declaredBytes: declaredLength(request.headers['content-length']),
      fileName: fileName || null,
    });
    if (result.status === 'succeeded') return reply.code(201).send(result.stored);
    return reply.code(400).send({
      error: 'Validation failed',
      importId: result.importId,
      issueCount: result.issueCount,
      issues: result.issues,
    });
  } catch (error) {
    // The rest of an oversized body, or of one refused because an upload is already running, is
    // never read: the connection cannot carry another request after this answer.
    if (
      error instanceof PayloadTooLargeError ||
      error instanceof UploadRunningError ||
      error instanceof TooManyUploadsError
    ) {
      reply.header('connection', 'close');
    }
    throw error;
  }
}
