import {
  ARRANGEMENT_HEADINGS,
  CONTRIBUTION_COLUMNS,
  headingKey,
  type ImportIssue,
  type ImportKind,
  MEMBER_COLUMNS,
} from '../../../contracts/imports';
import { EURO_FORMAT_HINT } from '../../../contracts/money';
import { counted, nounFor } from '../../../contracts/plain-english';

export { MAX_IMPORT_BYTES } from '../../../contracts/imports';

/**
 * The columns each CSV import reads, as the wizard describes them to a person: the headings each
 * may carry are the service's own (src/contracts/imports.ts), the first being the usual one. The
 * wizard shows these and marks headings of a chosen file that it does not recognise; the
 * service's answer is what counts.
 */
export interface ColumnFormat {
  /** What the column holds, as the wizard names it. */
  label: string;
  headings: readonly string[];
  required: string;
  format: string;
}

export interface ImportFormat {
  label: string;
  columns: readonly ColumnFormat[];
  /** The headings a template file starts with. */
  template: readonly string[];
  /** Headings whose cells the preview hides. */
  private: readonly string[];
  /** Columns a file must have: one of each group (by label), as the service requires. */
  requiredGroups: readonly (readonly string[])[];
}

/**
 * The Arrangement column as payroll exports write it: a scheme's imports take it when each row
 * names this scheme (docs/imports.md).
 */
const ARRANGEMENT_COLUMN: ColumnFormat = {
  label: 'Arrangement',
  headings: ARRANGEMENT_HEADINGS,
  required: 'No',
  format: 'This scheme’s name as the payroll writes it (any case) or its id; or empty',
};

export const IMPORT_FORMATS: Record<ImportKind, ImportFormat> = {
  members: {
    label: 'Members',
    columns: [
      {
        label: 'PPS number',
        headings: MEMBER_COLUMNS.ppsNumber,
        required: 'Yes',
        format: '7 digits and a check letter, e.g. 1234567T',
      },
      {
        label: 'First name',
        headings: MEMBER_COLUMNS.firstName,
        required: 'Yes',
        format: 'Text',
      },
      {
        label: 'Last name',
        headings: MEMBER_COLUMNS.lastName,
        required: 'Yes',
        format: 'Text',
      },
      {
        label: 'Date of birth',
        headings: MEMBER_COLUMNS.dateOfBirth,
        required: 'Yes',
        format: 'YYYY-MM-DD or DD/MM/YYYY',
      },
      {
        label: 'Date joined',
        headings: MEMBER_COLUMNS.dateJoined,
        required: 'Yes',
        format: 'YYYY-MM-DD or DD/MM/YYYY',
      },
      {
        label: 'Salary in euro',
        headings: MEMBER_COLUMNS.salary,
        required: 'Yes, or Salary Cents',
        format: EURO_FORMAT_HINT,
      },
      {
        label: 'Salary in cents',
        headings: MEMBER_COLUMNS.salaryCents,
        required: 'Instead of Salary',
        format: 'Whole cents, e.g. 4500000',
      },
      {
        label: 'E-mail address',
        headings: MEMBER_COLUMNS.email,
        required: 'No',
        format: 'name@example.ie',
      },
      {
        label: 'Postal address',
        headings: MEMBER_COLUMNS.address,
        required: 'No',
        format: 'Text',
      },
      {
        label: 'Status',
        headings: MEMBER_COLUMNS.status,
        required: 'No (active)',
        format: 'active, deferred, retired or left',
      },
      ARRANGEMENT_COLUMN,
    ],
    template: [
      MEMBER_COLUMNS.ppsNumber[0],
      MEMBER_COLUMNS.firstName[0],
      MEMBER_COLUMNS.lastName[0],
      MEMBER_COLUMNS.dateOfBirth[0],
      MEMBER_COLUMNS.dateJoined[0],
      MEMBER_COLUMNS.salary[0],
      MEMBER_COLUMNS.email[0],
      MEMBER_COLUMNS.address[0],
      MEMBER_COLUMNS.status[0],
    ],
    private: MEMBER_COLUMNS.ppsNumber,
    requiredGroups: [
      ['PPS number'],
      ['First name'],
      ['Last name'],
      ['Date of birth'],
      ['Date joined'],
      ['Salary in euro', 'Salary in cents'],
    ],
  },
  contributions: {
    label: 'Contributions',
    columns: [
      {
        label: 'PPS number',
        headings: CONTRIBUTION_COLUMNS.ppsNumber,
        required: 'This or Member ID',
        format: 'The member’s PPS number',
      },
      {
        label: 'Member id',
        headings: CONTRIBUTION_COLUMNS.memberId,
        required: 'This or PPS number',
        format: 'The member’s id in this service',
      },
      {
        label: 'Pay period',
        headings: CONTRIBUTION_COLUMNS.period,
        required: 'Yes',
        format: 'YYYY-MM or MM/YYYY',
      },
      {
        label: 'Employee contribution',
        headings: CONTRIBUTION_COLUMNS.employee,
        required: 'At least one amount column',
        format: `${EURO_FORMAT_HINT}; an empty cell records nothing`,
      },
      {
        label: 'Employer contribution',
        headings: CONTRIBUTION_COLUMNS.employer,
        required: 'At least one amount column',
        format: `${EURO_FORMAT_HINT}; an empty cell records nothing`,
      },
      {
        label: 'AVC',
        headings: CONTRIBUTION_COLUMNS.avc,
        required: 'At least one amount column',
        format: `${EURO_FORMAT_HINT}; an empty cell records nothing`,
      },
      ARRANGEMENT_COLUMN,
    ],
    template: [
      CONTRIBUTION_COLUMNS.ppsNumber[0],
      CONTRIBUTION_COLUMNS.period[0],
      CONTRIBUTION_COLUMNS.employee[0],
      CONTRIBUTION_COLUMNS.employer[0],
      CONTRIBUTION_COLUMNS.avc[0],
    ],
    private: CONTRIBUTION_COLUMNS.ppsNumber,
    requiredGroups: [
      ['PPS number', 'Member id'],
      ['Pay period'],
      ['Employee contribution', 'Employer contribution', 'AVC'],
    ],
  },
};

/** Whether a heading names a column of this kind of import. */
export function isKnownHeading(format: ImportFormat, heading: string): boolean {
  const key = headingKey(heading);
  return format.columns.some((column) => column.headings.some((h) => headingKey(h) === key));
}

/** The headings of a file that name no column of this kind of import, as the file writes them. */
export function unknownHeadings(format: ImportFormat, headings: readonly string[]): string[] {
  return headings.filter((heading) => heading.trim() !== '' && !isKnownHeading(format, heading));
}

/** The required columns a heading row lacks, each as "A or B" when either would do. */
export function missingColumns(format: ImportFormat, headings: readonly string[]): string[] {
  const keys = new Set(headings.map(headingKey));
  const present = (label: string) =>
    format.columns
      .find((column) => column.label === label)
      ?.headings.some((heading) => keys.has(headingKey(heading))) ?? false;
  return format.requiredGroups
    .filter((group) => !group.some(present))
    .map((group) => group.join(' or '));
}

export function isPrivateHeading(format: ImportFormat, heading: string): boolean {
  const key = headingKey(heading);
  return format.private.some((h) => headingKey(h) === key);
}

/**
 * Why the service will refuse the whole file, from what the preview read of it, or null when the
 * preview found no such reason: headings the import does not read, required columns missing, rows
 * that are not CSV. Each refuses every row (docs/imports.md), so the wizard does not offer to send
 * the file until it is corrected; what the preview cannot see is still the service's to judge.
 */
export function refusalOfPreview(
  format: ImportFormat,
  preview: { headings: readonly string[]; problems: readonly ImportIssue[] },
): string | null {
  const reasons: string[] = [];
  const unknown = unknownHeadings(format, preview.headings);
  if (unknown.length > 0) {
    reasons.push(
      `${nounFor(unknown.length, 'a heading', 'headings')} (${unknown.join(', ')}) that this import does not read`,
    );
  }
  const missing = missingColumns(format, preview.headings);
  if (missing.length > 0) {
    reasons.push(
      `${nounFor(missing.length, 'a required column', 'required columns')} missing (${missing.join('; ')})`,
    );
  }
  const lines = new Set(preview.problems.map((problem) => problem.line)).size;
  if (lines > 0) reasons.push(`${counted(lines, 'line')} the preview lists above`);
  if (reasons.length === 0) return null;
  return `The service will refuse this file as it is: ${reasons.join('; ')}. Correct the file and choose it again.`;
}
