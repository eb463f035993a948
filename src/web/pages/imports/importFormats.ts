import type { ImportKind } from '../../api/types';

/**
 * The columns each CSV import reads and the headings each may carry, as the service defines them
 * (MEMBER_COLUMNS in src/server/modules/imports/member-rows.ts and CONTRIBUTION_COLUMNS in
 * contribution-rows.ts; change them together). The first heading is the usual one. The wizard
 * shows these and marks headings of a chosen file that it does not recognise; the service's
 * answer is what counts.
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

const PPS_HEADINGS = ['PPSN', 'PPS No', 'PPS Number', 'PPS', 'PPS Num'];

export const IMPORT_FORMATS: Record<ImportKind, ImportFormat> = {
  members: {
    label: 'Members',
    columns: [
      {
        label: 'PPS number',
        headings: PPS_HEADINGS,
        required: 'Yes',
        format: '7 digits and a check letter, e.g. 1234567T',
      },
      {
        label: 'First name',
        headings: ['First Name', 'Forename', 'Given Name', 'First'],
        required: 'Yes',
        format: 'Text',
      },
      {
        label: 'Last name',
        headings: ['Surname', 'Last Name', 'Family Name', 'Last'],
        required: 'Yes',
        format: 'Text',
      },
      {
        label: 'Date of birth',
        headings: ['Date of Birth', 'DOB', 'Birth Date', 'Birthdate'],
        required: 'Yes',
        format: 'YYYY-MM-DD or DD/MM/YYYY',
      },
      {
        label: 'Date joined',
        headings: ['Date Joined', 'Join Date', 'Joined', 'Joining Date', 'Date of Joining'],
        required: 'Yes',
        format: 'YYYY-MM-DD or DD/MM/YYYY',
      },
      {
        label: 'Salary in euro',
        headings: ['Salary', 'Annual Salary', 'Salary EUR'],
        required: 'Yes, or Salary Cents',
        format: 'Euro, e.g. 45000.00 or 45,000.00',
      },
      {
        label: 'Salary in cents',
        headings: ['Salary Cents'],
        required: 'Instead of Salary',
        format: 'Whole cents, e.g. 4500000',
      },
      {
        label: 'E-mail address',
        headings: ['Email', 'Email Address'],
        required: 'No',
        format: 'name@example.ie',
      },
      {
        label: 'Postal address',
        headings: ['Address', 'Postal Address'],
        required: 'No',
        format: 'Text',
      },
      {
        label: 'Status',
        headings: ['Status', 'Member Status'],
        required: 'No (active)',
        format: 'active, deferred, retired or left',
      },
    ],
    template: [
      'PPSN',
      'First Name',
      'Surname',
      'Date of Birth',
      'Date Joined',
      'Salary',
      'Email',
      'Address',
      'Status',
    ],
    private: PPS_HEADINGS,
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
        headings: PPS_HEADINGS,
        required: 'This or Member ID',
        format: 'The member’s PPS number',
      },
      {
        label: 'Member id',
        headings: ['Member ID', 'Member'],
        required: 'This or PPS number',
        format: 'The member’s id in this service',
      },
      {
        label: 'Pay period',
        headings: ['Period', 'Pay Period', 'Month'],
        required: 'Yes',
        format: 'YYYY-MM or MM/YYYY',
      },
      {
        label: 'Employee contribution',
        headings: ['Employee', 'Employee Contribution', 'EE'],
        required: 'At least one amount column',
        format: 'Euro; an empty cell records nothing',
      },
      {
        label: 'Employer contribution',
        headings: ['Employer', 'Employer Contribution', 'ER'],
        required: 'At least one amount column',
        format: 'Euro; an empty cell records nothing',
      },
      {
        label: 'AVC',
        headings: ['AVC', 'AVCs', 'Additional Voluntary Contribution'],
        required: 'At least one amount column',
        format: 'Euro; an empty cell records nothing',
      },
    ],
    template: ['PPSN', 'Period', 'Employee', 'Employer', 'AVC'],
    private: PPS_HEADINGS,
    requiredGroups: [
      ['PPS number', 'Member id'],
      ['Pay period'],
      ['Employee contribution', 'Employer contribution', 'AVC'],
    ],
  },
};

/** Headings match whatever their case, spacing and punctuation, as the service matches them. */
export function headingKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Whether a heading names a column of this kind of import. */
export function isKnownHeading(format: ImportFormat, heading: string): boolean {
  const key = headingKey(heading);
  return format.columns.some((column) => column.headings.some((h) => headingKey(h) === key));
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

/** The largest file the service takes (decisions.md §2). */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;
