import { z } from 'zod';
import { AE_REASONS, AE_STATUSES } from './auto-enrolment-rules.js';
import {
  ARRANGEMENT_HEADINGS,
  type ColumnAliases,
  IMPORT_STATUSES,
  importIssue,
  MEMBER_COLUMNS,
} from './imports.js';
import { isoDate } from './members.js';
import { pageOf, pageQuery } from './pages.js';
import { ROLES } from './roles.js';
import { RULE_LABELS } from './rule-sources.js';

/**
 * The auto-enrolment readiness API as both sides see it (docs/api.md, "Auto-enrolment
 * readiness"; rules: auto-enrolment-rules.ts): the columns of an employer's payroll file, the
 * answer about an upload, the assessment, its cost comparison and the broker's overview.
 */

export type PayrollColumn =
  | 'ppsNumber'
  | 'firstName'
  | 'lastName'
  | 'dateOfBirth'
  | 'periodStart'
  | 'periodEnd'
  | 'grossPay'
  | 'employeePension'
  | 'employerPension'
  | 'arrangement';

/** The columns of a payroll file and the headings each may carry (docs/imports.md). */
export const PAYROLL_COLUMNS: ColumnAliases<PayrollColumn> = {
  ppsNumber: MEMBER_COLUMNS.ppsNumber,
  firstName: MEMBER_COLUMNS.firstName,
  lastName: MEMBER_COLUMNS.lastName,
  dateOfBirth: MEMBER_COLUMNS.dateOfBirth,
  periodStart: ['Period Start', 'Pay Period Start', 'Period From', 'From'],
  periodEnd: ['Period End', 'Pay Period End', 'Period To', 'To'],
  grossPay: ['Gross Pay', 'Gross', 'Gross Pay EUR'],
  employeePension: ['Employee Pension', 'EE Pension', 'Employee Pension Deduction'],
  employerPension: ['Employer Pension', 'ER Pension', 'Employer Pension Contribution'],
  arrangement: ARRANGEMENT_HEADINGS,
};

/**
 * What each column of a payroll file is, as the upload wizard names it, and whether a file must
 * have it (docs/imports.md, "Payroll for auto-enrolment readiness"): the service refuses a file
 * without a required column, and the wizard checks the same before the file is sent. The other
 * columns may be left out: a name is only shown when given, and an empty amount or arrangement is
 * none.
 */
export const PAYROLL_FIELDS: Record<PayrollColumn, { label: string; required: boolean }> = {
  ppsNumber: { label: 'PPS number', required: true },
  firstName: { label: 'First name', required: false },
  lastName: { label: 'Last name', required: false },
  dateOfBirth: { label: 'Date of birth', required: true },
  periodStart: { label: 'Period start', required: true },
  periodEnd: { label: 'Period end', required: true },
  grossPay: { label: 'Gross pay', required: true },
  employeePension: { label: 'Employee pension', required: false },
  employerPension: { label: 'Employer pension', required: false },
  arrangement: { label: 'Arrangement', required: false },
};

/** The columns a payroll file must have, in the order of the file's usual layout. */
export const PAYROLL_REQUIRED_COLUMNS: readonly PayrollColumn[] = (
  Object.keys(PAYROLL_FIELDS) as PayrollColumn[]
).filter((column) => PAYROLL_FIELDS[column].required);

/** The cell of the Arrangement column that names a PRSA rather than a scheme. */
export const PRSA_ARRANGEMENT = 'PRSA';

export const payrollUploadView = z.object({
  id: z.string(),
  employerId: z.string(),
  status: z.enum(IMPORT_STATUSES),
  fileSha256: z.string().nullable(),
  fileName: z.string().nullable(),
  fileBytes: z.number().int(),
  /** While it runs, moves every few thousand rows: how progress is followed. */
  rowsRead: z.number().int(),
  rowsWritten: z.number().int(),
  /** People named for the first time by this upload. */
  employeesWritten: z.number().int(),
  issueCount: z.number().int(),
  issues: z.array(importIssue).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type PayrollUploadView = z.infer<typeof payrollUploadView>;

/** `GET /api/employers/:id/payroll/imports`: the employer's uploads, newest first. */
export const payrollUploadListQuery = pageQuery;

/**
 * One upload in the employer's list: enough to tell uploads apart and choose one to delete. Who
 * uploaded it is a user id and role, never an address; the pay periods and employees are counted
 * from its pay lines, so an upload that wrote nothing covers none.
 */
export const payrollUploadSummary = z.object({
  id: z.string(),
  employerId: z.string(),
  status: z.enum(IMPORT_STATUSES),
  fileName: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  uploadedBy: z.object({
    userId: z.string(),
    /** The name the account was given; null, as the role is, when it is no longer to be found. */
    name: z.string().nullable(),
    /** Null when the user is no longer to be found. */
    role: z.enum(ROLES).nullable(),
  }),
  /** Bytes and rows read: while it runs they move every few thousand rows, as progress. */
  fileBytes: z.number().int(),
  rowsRead: z.number().int(),
  rowsWritten: z.number().int(),
  issueCount: z.number().int(),
  /** The people its pay lines name, whether or not an earlier upload named them first. */
  employees: z.number().int(),
  /** The distinct pay periods its lines cover, and the first and last day (YYYY-MM-DD) they span. */
  payPeriods: z.number().int(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
});
export type PayrollUploadSummary = z.infer<typeof payrollUploadSummary>;

export const payrollUploadPage = pageOf(payrollUploadSummary);
export type PayrollUploadPage = z.infer<typeof payrollUploadPage>;

/** The day the assessment is made on; today in Ireland when left out. */
export const assessmentQuery = z.object({ asOf: isoDate.optional() });
export type AssessmentQuery = z.infer<typeof assessmentQuery>;

const reasonCodes = Object.keys(AE_REASONS) as [
  keyof typeof AE_REASONS,
  ...(keyof typeof AE_REASONS)[],
];

export const assessedEmployee = z.object({
  employeeId: z.string(),
  /** The member the payroll matched by PPS lookup in one of this employer's schemes. */
  memberId: z.string().optional(),
  /** Only when the employer's payroll gave them. */
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  status: z.enum(AE_STATUSES),
  /** Each reason's sentence and the source of the rule it applies (auto-enrolment-rules.ts). */
  reasons: z.array(
    z.object({
      code: z.enum(reasonCodes),
      message: z.string(),
      label: z.enum(RULE_LABELS),
      citation: z.string(),
    }),
  ),
  shortfallCents: z.number().int().optional(),
});
export type AssessedEmployee = z.infer<typeof assessedEmployee>;

export const statusTotals = z.object({
  exempt: z.number().int(),
  likely_exempt: z.number().int(),
  below_standard: z.number().int(),
  likely_enrolled: z.number().int(),
  not_eligible: z.number().int(),
});
export type StatusTotals = z.infer<typeof statusTotals>;

export const assessmentView = z.object({
  asOf: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  employees: z.array(assessedEmployee),
  totals: statusTotals,
});
export type AssessmentView = z.infer<typeof assessmentView>;

export const costView = z.object({
  asOf: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  /** The below-standard members the comparison is about. */
  employees: z.number().int(),
  years: z.array(
    z.object({
      /** The calendar year: 2026 is year 1 of My Future Fund's rate schedule. */
      year: z.number().int(),
      employerBasisPoints: z.number().int(),
      myFutureFundCents: z.number().int(),
      minimumStandardCents: z.number().int(),
    }),
  ),
});
export type CostView = z.infer<typeof costView>;

export const overviewView = z.object({
  asOf: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  employers: z.array(
    z.object({ employerId: z.string(), employerName: z.string(), totals: statusTotals }),
  ),
});
export type OverviewView = z.infer<typeof overviewView>;
