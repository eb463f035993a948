import {
  PAYROLL_COLUMNS,
  PAYROLL_FIELDS,
  PAYROLL_REQUIRED_COLUMNS,
  type PayrollColumn,
  PRSA_ARRANGEMENT,
} from '../../../contracts/auto-enrolment';
import type { ImportFormat } from '../imports/importFormats';

/** One column as the wizard's table describes it: its label and headings are the contract's. */
function column(field: PayrollColumn, format: string, whenOptional = 'No') {
  const { label, required } = PAYROLL_FIELDS[field];
  return {
    label,
    headings: PAYROLL_COLUMNS[field],
    required: required ? 'Yes' : whenOptional,
    format,
  };
}

/**
 * The payroll file for the automatic-enrolment assessment as the upload wizard describes it
 * (docs/imports.md, "Payroll for auto-enrolment readiness"): the columns, their headings and which
 * are required are the service's own (contracts/auto-enrolment.ts), the first heading of each being
 * the usual one. This adds only how each cell is written. The amounts are what went through payroll
 * in the period.
 */
export const PAYROLL_FORMAT: ImportFormat = {
  label: 'Payroll',
  columns: [
    column('ppsNumber', '7 digits and a check letter, e.g. 1234567T'),
    column('firstName', 'Text'),
    column('lastName', 'Text'),
    column('dateOfBirth', 'DD/MM/YYYY or YYYY-MM-DD'),
    column('periodStart', 'The pay period’s first day, DD/MM/YYYY'),
    column(
      'periodEnd',
      'The pay period’s last day, DD/MM/YYYY; a period is at most a calendar month',
    ),
    column('grossPay', 'Euro for the period, two decimals, e.g. 3250.00'),
    column('employeePension', 'Euro deducted through payroll in the period', 'No (empty is none)'),
    column(
      'employerPension',
      'Euro paid by the employer through payroll in the period',
      'No (empty is none)',
    ),
    column(
      'arrangement',
      `The name or id of a scheme of this employer (listed below), ${PRSA_ARRANGEMENT}, or empty for none; a PRSA paid by direct debit is ${PRSA_ARRANGEMENT} with no amounts`,
      'When a pension amount is given',
    ),
  ],
  template: (Object.keys(PAYROLL_COLUMNS) as PayrollColumn[]).map(
    (field) => PAYROLL_COLUMNS[field][0] as string,
  ),
  private: PAYROLL_COLUMNS.ppsNumber,
  requiredGroups: PAYROLL_REQUIRED_COLUMNS.map((field) => [PAYROLL_FIELDS[field].label]),
};
