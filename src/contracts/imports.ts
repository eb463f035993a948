import { z } from 'zod';
import { type ContributionKind, paidIn } from './contributions.js';
import { counted } from './plain-english.js';
import { text } from './text.js';

/**
 * The CSV imports as both sides see them (docs/imports.md): the columns each file may have and
 * the headings each column may carry, the answer about an import, and its limits. The service
 * reads files by these headings; the browser's import wizard shows them and checks a chosen
 * file's heading row against them before it is sent.
 */

export const IMPORT_KINDS = ['members', 'contributions'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * What an import saved, in words: members, or contributions, which are not rows (one row of a
 * contributions file may carry an employee's and an employer's contribution, each saved apart).
 */
export function savedInWords(kind: ImportKind, count: number): string {
  return counted(count, kind === 'members' ? 'member' : 'contribution');
}
export const IMPORT_STATUSES = ['running', 'succeeded', 'rejected', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * The query beside an uploaded CSV (the body is the file itself): the upload's own file name, kept
 * to reconcile against the payroll run. Only its last part is kept, never a folder path.
 */
export const importQuery = z.object({
  fileName: text({ max: 255 })
    .transform((name) => name.split(/[\\/]/).pop() ?? '')
    .optional(),
});

/** The largest file an import takes, 25 MiB (docs/api.md, "Requests and answers"). */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;

/**
 * The headings a column may carry, as people write them; the first is the one the documentation
 * and messages use. Headings match whatever their case, spacing and punctuation: `PPS No.`,
 * `pps_no` and `PPSNo` are one heading.
 */
export type ColumnAliases<F extends string> = Record<F, readonly [string, ...string[]]>;

export function headingKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The headings of the column that names the arrangement a payroll row's pension money goes to, as
 * payroll exports write it: the payroll upload for auto-enrolment and a scheme's own imports read
 * the same column (docs/imports.md).
 */
export const ARRANGEMENT_HEADINGS = [
  'Arrangement',
  'Pension Arrangement',
  'Pension Scheme',
] as const;

/**
 * How an Arrangement cell names a scheme besides its id: by its name as a payroll export writes
 * it, whatever its case or the spaces around and between its words (docs/imports.md, "Payroll").
 * A cell and a scheme's name match when their keys are equal.
 */
export function arrangementKey(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-IE');
}

/**
 * A scheme's name is at most 200 characters (organisation.ts); a cell five times as long names no
 * scheme however it is spaced, and is not read further, so that a 25 MiB cell costs nothing.
 */
const MAX_ARRANGEMENT_CHARACTERS = 1_000;

/** Which of the schemes an Arrangement cell names: its place among them, or why it names none. */
export type SchemeNamed = number | 'unknown' | 'ambiguous';

/**
 * What an Arrangement cell names among `schemes`: a scheme's id first, then its name
 * (`arrangementKey`). A name two of the schemes share names neither: only their ids tell them
 * apart. The payroll upload reads the cell against the employer's live schemes; a scheme's own
 * imports against that one scheme (docs/imports.md).
 */
export function schemeNamer(
  schemes: ReadonlyArray<{ id: string; name: string }>,
): (cell: string) => SchemeNamed {
  const byId = new Map(schemes.map((scheme, index) => [scheme.id, index]));
  const byName = new Map<string, number | 'ambiguous'>();
  schemes.forEach((scheme, index) => {
    const key = arrangementKey(scheme.name);
    byName.set(key, byName.has(key) ? 'ambiguous' : index);
  });
  return (cell) =>
    byId.get(cell) ??
    (cell.length <= MAX_ARRANGEMENT_CHARACTERS ? byName.get(arrangementKey(cell)) : undefined) ??
    'unknown';
}

export type MemberColumn =
  | 'ppsNumber'
  | 'firstName'
  | 'lastName'
  | 'dateOfBirth'
  | 'email'
  | 'address'
  | 'dateJoined'
  | 'salary'
  | 'salaryCents'
  | 'status'
  | 'arrangement';

/** The columns of a members file and the headings each may carry (docs/imports.md). */
export const MEMBER_COLUMNS: ColumnAliases<MemberColumn> = {
  ppsNumber: ['PPSN', 'PPS No', 'PPS Number', 'PPS', 'PPS Num'],
  firstName: ['First Name', 'Forename', 'Given Name', 'First'],
  lastName: ['Surname', 'Last Name', 'Family Name', 'Last'],
  dateOfBirth: ['Date of Birth', 'DOB', 'Birth Date', 'Birthdate'],
  email: ['Email', 'Email Address'],
  address: ['Address', 'Postal Address'],
  dateJoined: ['Date Joined', 'Join Date', 'Joined', 'Joining Date', 'Date of Joining'],
  salary: ['Salary', 'Annual Salary', 'Salary EUR'],
  salaryCents: ['Salary Cents'],
  status: ['Status', 'Member Status'],
  arrangement: ARRANGEMENT_HEADINGS,
};

export type ContributionColumn =
  | 'memberId'
  | 'ppsNumber'
  | 'period'
  | ContributionKind
  | 'arrangement';

/** The columns of a contributions file and the headings each may carry (docs/imports.md). */
export const CONTRIBUTION_COLUMNS: ColumnAliases<ContributionColumn> = {
  ppsNumber: MEMBER_COLUMNS.ppsNumber,
  memberId: ['Member ID', 'Member'],
  period: ['Period', 'Pay Period', 'Month'],
  employee: ['Employee', 'Employee Contribution', 'EE'],
  employer: ['Employer', 'Employer Contribution', 'ER'],
  avc: ['AVC', 'AVCs', 'Additional Voluntary Contribution'],
  arrangement: ARRANGEMENT_HEADINGS,
};

/**
 * What is wrong with an uploaded file: the line (the heading row counts as a line, so the first
 * data row of most files is line 2), the column as its heading reads, a stable code and a
 * sentence. Messages never quote a cell: a PPS number must not travel back in an answer, a log
 * or the stored import record.
 */
export const importIssue = z.object({
  /** Null for what concerns the whole file (already imported, too large). */
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type ImportIssue = z.infer<typeof importIssue>;

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
  totals: paidIn.nullable(),
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
