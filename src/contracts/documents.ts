import { z } from 'zod';
import { fileSizeInWords, sizeOverLimit } from './file-size.js';
import { MAX_IMPORT_BYTES } from './imports.js';
import { pageQuery } from './pages.js';
import { text } from './text.js';

/**
 * Documents (docs/api.md, "Governance and documents"; docs/decisions/0062-document-vault.md): a
 * scheme's files kept per tenant and reached only through short-lived signed URLs.
 */
export const DOCUMENT_TYPES = [
  'scheme_pdf',
  'trust_deed',
  'written_policy',
  'ora_report',
  'kfh_appointment',
  'member_booklet',
  'benefit_statement',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Each type in words, for the forms and for the API's refusals. */
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  scheme_pdf: 'Scheme document',
  trust_deed: 'Trust deed',
  written_policy: 'Written policy',
  ora_report: 'Own-risk assessment report',
  kfh_appointment: 'Key function appointment',
  member_booklet: 'Member booklet',
  benefit_statement: 'Benefit statement',
  other: 'Other',
};

/**
 * Which types are about one member (docs/decisions/0090-member-documents.md): uploaded with
 * the member's id, listed and served to that member and to staff in reach, never to the scheme's
 * other members. A benefit statement always is; a scheme's governance and scheme-wide papers never
 * are; anything else may be.
 */
export const MEMBER_DOCUMENT_RULE: Record<DocumentType, 'required' | 'optional' | 'refused'> = {
  scheme_pdf: 'refused',
  trust_deed: 'refused',
  written_policy: 'refused',
  ora_report: 'refused',
  kfh_appointment: 'refused',
  member_booklet: 'refused',
  benefit_statement: 'required',
  other: 'optional',
};

/** The types that may name a member, for the upload form's member field. */
export const MEMBER_DOCUMENT_TYPES = DOCUMENT_TYPES.filter(
  (type) => MEMBER_DOCUMENT_RULE[type] !== 'refused',
);

/**
 * `pending` until the scanner has answered, then `clean` or `quarantined`; `unscanned` where the
 * service runs without a scanner (development and test, or DOCUMENT_SCAN=off).
 */
export const SCAN_STATUSES = ['pending', 'clean', 'quarantined', 'unscanned'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** Each scan state in plain words: an unscanned document is said to be so, never passed as clean. */
export const SCAN_STATUS_LABELS: Record<ScanStatus, string> = {
  pending: 'Scanning…',
  clean: 'Clean',
  quarantined: 'Quarantined — not downloadable',
  unscanned: 'Not scanned: this service runs without a virus scanner',
};

/** The states a download is offered for; the API has the last word (it serves unscanned only without a scanner). */
export const DOWNLOADABLE_SCAN_STATUSES: readonly ScanStatus[] = ['clean', 'unscanned'];

/** The content types accepted, judged from the file's own bytes, never its name. */
export const DOCUMENT_CONTENT_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
  jpeg: 'image/jpeg',
} as const;
export type DocumentContentType =
  (typeof DOCUMENT_CONTENT_TYPES)[keyof typeof DOCUMENT_CONTENT_TYPES];

/** Each accepted content type as people name the format, for the audit log's lines. */
export const DOCUMENT_FORMAT_NAMES: Record<DocumentContentType, string> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document (DOCX)',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
};

/** The refusal of anything else, in words: it names what is accepted. */
export const ACCEPTED_TYPES_MESSAGE =
  'The file must be a PDF, a Word document (DOCX), a PNG or a JPEG';

/** Uploads up to 25 MiB, as the imports (docs/api.md, "Requests and answers"). */
export const MAX_DOCUMENT_BYTES = MAX_IMPORT_BYTES;

/** A signed URL is good for this long (docs/decisions/0062-document-vault.md). */
export const DOCUMENT_URL_TTL_SECONDS = 5 * 60;

export const documentView = z.object({
  id: z.string(),
  schemeId: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  filename: z.string(),
  /** The name as the uploader's computer gave it, before it was made safe. */
  originalFilename: z.string(),
  title: z.string().nullable(),
  memberFacing: z.boolean(),
  /** The member the document is about, or null for the scheme's own documents. */
  memberId: z.string().nullable(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  version: z.number().int(),
  scanStatus: z.enum(SCAN_STATUSES),
  createdAt: z.string(),
});
export type DocumentView = z.infer<typeof documentView>;

export const documentListQuery = pageQuery.extend({
  /** Every version of every name, not only the latest of each. */
  allVersions: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
export type DocumentListQuery = z.infer<typeof documentListQuery>;

export const documentUrlView = z.object({ url: z.string(), expiresAt: z.string() });
export type DocumentUrlView = z.infer<typeof documentUrlView>;

/**
 * The upload form's fields besides the file, as multipart sends them (strings): the API parses
 * them with this and the browser's form checks them with it before sending.
 */
export const documentUploadFields = z
  .object({
    documentType: z.enum(DOCUMENT_TYPES, {
      error: `Choose the document type: one of ${DOCUMENT_TYPES.join(', ')}`,
    }),
    memberFacing: z
      .enum(['true', 'false'], { error: 'memberFacing must be true or false' })
      .optional()
      .transform((value) => value === 'true'),
    title: text({ max: 200 }).min(1).optional(),
    /** The member the document is about (MEMBER_DOCUMENT_RULE); empty means none. */
    memberId: z
      .string()
      .trim()
      .max(64, 'memberId is not a member id')
      .regex(/^[A-Za-z0-9_-]*$/, 'memberId is not a member id')
      .optional()
      .transform((value) => (value ? value : undefined)),
  })
  .superRefine((fields, context) => {
    const rule = MEMBER_DOCUMENT_RULE[fields.documentType];
    if (rule === 'required' && fields.memberId === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['memberId'],
        message: `Choose the member this ${DOCUMENT_TYPE_LABELS[fields.documentType].toLowerCase()} is about`,
      });
    }
    if (rule === 'refused' && fields.memberId !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['memberId'],
        message: `A ${DOCUMENT_TYPE_LABELS[fields.documentType].toLowerCase()} is the scheme’s, not one member’s: leave the member empty`,
      });
    }
  });

/** What is wrong with a file of this size before it is sent, in words, or null. */
export function fileSizeProblem(bytes: number): string | null {
  if (bytes === 0) return 'The file is empty';
  if (bytes > MAX_DOCUMENT_BYTES) {
    return `The file is ${sizeOverLimit(bytes, MAX_DOCUMENT_BYTES)}: a document may be at most ${fileSizeInWords(MAX_DOCUMENT_BYTES)}`;
  }
  return null;
}
