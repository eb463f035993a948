import { fileSizeInWords, sizeOverLimit } from '../../../contracts/file-size';
import { ApiError, describeError } from '../../api/client';
import type { ImportIssue } from '../../api/types';
import { MAX_IMPORT_BYTES } from './importFormats';

/**
 * What every CSV upload of the UI shares (the scheme import wizard, the employer's payroll upload
 * for automatic enrolment): how a file's size reads, why a chosen file is not worth sending, and
 * how a refused upload is told. The service checks every row and writes all or none
 * (docs/imports.md); these only shape what a person reads. A size is written by fileSizeInWords
 * (contracts/file-size.ts), as everywhere else.
 */

/**
 * Why a chosen file should not be sent at all, or null. Checked in the browser too, so that
 * nobody waits for a file over the limit to travel only to be refused.
 */
export function chosenFileProblem(size: number): string | null {
  if (size > MAX_IMPORT_BYTES) {
    return `The file is ${sizeOverLimit(size, MAX_IMPORT_BYTES)}; the largest file accepted is ${fileSizeInWords(MAX_IMPORT_BYTES)}.`;
  }
  if (size === 0) return 'The file is empty: its first line must name the columns.';
  return null;
}

/** How a refused upload ended: every bad row by line, or one reason for the whole file. */
export type UploadFailure =
  | { kind: 'rejected'; issues: ImportIssue[]; issueCount: number }
  | { kind: 'refused'; title: string; message: string };

/** Issues of a 400 as the API client hands them over (its issue type is a wider one). */
export function issuesOf(error: ApiError): ImportIssue[] {
  return error.issues.map((issue) => ({
    line: issue.line ?? null,
    column: issue.column ?? null,
    code: issue.code ?? '',
    message: issue.message,
  }));
}

/**
 * A failed upload as the wizard shows it. A 400 naming lines is the file's own problems; the
 * other refusals each get a sentence about what to do next.
 */
export function uploadFailure(error: unknown): UploadFailure {
  if (!(error instanceof ApiError)) {
    return { kind: 'refused', title: 'The upload failed', message: describeError(error) };
  }
  if (error.status === 400 && error.issues.some((issue) => 'line' in issue)) {
    const issues = issuesOf(error);
    return { kind: 'rejected', issues, issueCount: issues.length };
  }
  if (error.status === 409) {
    return { kind: 'refused', title: 'Already imported', message: error.error };
  }
  if (error.status === 413) {
    return {
      kind: 'refused',
      title: 'File too large',
      message: `The file is over ${fileSizeInWords(MAX_IMPORT_BYTES)}. Split it into smaller files and import each.`,
    };
  }
  return { kind: 'refused', title: 'The file was not imported', message: describeError(error) };
}
