import { Readable } from 'node:stream';
import { z } from 'zod';
import { idText, text } from '../../../contracts/text.js';
import { IMPORT_KINDS, IMPORT_STATUSES } from '../../db/schema.js';
import { pageQuery } from '../../http/pagination.js';
import { importIssue } from './import-issues.js';

export const importParams = z.object({ id: idText });
/**
 * The upload's own file name, sent by the client beside the body (which is the CSV itself): kept
 * to reconcile against the payroll run. Only its last part is kept, never a folder path.
 */
export const importQuery = z.object({
  fileName: text({ max: 255 })
    .transform((name) => name.split(/[\\/]/).pop() ?? '')
    .optional(),
});
export const schemeImportsQuery = pageQuery;
export type SchemeImportsQuery = z.infer<typeof schemeImportsQuery>;

/**
 * The request body: CSV text, handed to the handler as the stream it arrives as (the route's own
 * content-type parser), so a file is never held in memory whole. The JSON description tells the
 * API reference what to send.
 */
export const csvBody = z.instanceof(Readable).meta({
  description:
    'CSV, UTF-8, comma-separated, headings on the first line (docs/imports.md); at most 25 MiB.',
  type: 'string',
});

/** An import without its issues: what a list shows. */
export const importSummary = z.object({
  id: z.string(),
  brokerId: z.string(),
  employerId: z.string(),
  schemeId: z.string(),
  kind: z.enum(IMPORT_KINDS),
  status: z.enum(IMPORT_STATUSES),
  /** Known once the whole file has arrived. */
  fileSha256: z.string().nullable(),
  /** The file's own name, when the uploader's client sent it. */
  fileName: z.string().nullable(),
  fileBytes: z.number().int(),
  rowsRead: z.number().int(),
  rowsWritten: z.number().int(),
  issueCount: z.number().int(),
  createdBy: z.string(),
  /** The uploader's name, read when the import is read. */
  uploadedBy: z.string().nullable(),
  /** For a contributions file: what it recorded per kind, to check against the payroll run. */
  totals: z
    .object({
      employeeCents: z.number().int(),
      employerCents: z.number().int(),
      avcCents: z.number().int(),
      totalCents: z.number().int(),
    })
    .nullable(),
  createdAt: z.string(),
  /** While it runs, moves every few thousand rows: how progress is followed. */
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportSummary = z.infer<typeof importSummary>;

export const importView = importSummary.extend({
  /** What was wrong, when rejected: every bad row by line, up to 10,000 (issueCount counts all). */
  issues: z.array(importIssue).nullable(),
});
export type ImportView = z.infer<typeof importView>;

/**
 * 400 of an import: the file's issues. The same status answers a malformed id or query, whose
 * issues name a path instead, as everywhere in the API.
 */
export const importRejection = z.object({
  error: z.string(),
  importId: z.string().optional(),
  issueCount: z.number().int().optional(),
  issues: z
    .array(
      z.union([importIssue, z.object({ path: z.string(), code: z.string(), message: z.string() })]),
    )
    .optional(),
});
