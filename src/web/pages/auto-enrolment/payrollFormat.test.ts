import { describe, expect, it } from 'vitest';
import { PAYROLL_COLUMNS, PAYROLL_REQUIRED_COLUMNS } from '../../../contracts/auto-enrolment';
import { isKnownHeading, missingColumns } from '../imports/importFormats';
import { PAYROLL_FORMAT } from './payrollFormat';

describe('the payroll file as the upload wizard describes it', () => {
  it('names every heading the service reads, and the template is one heading row of them', () => {
    for (const headings of Object.values(PAYROLL_COLUMNS)) {
      for (const heading of headings) expect(isKnownHeading(PAYROLL_FORMAT, heading)).toBe(true);
    }
    expect(PAYROLL_FORMAT.template).toHaveLength(Object.keys(PAYROLL_COLUMNS).length);
    expect(isKnownHeading(PAYROLL_FORMAT, 'Salary')).toBe(false);
  });

  it('asks for the columns the service requires, and no more', () => {
    expect(missingColumns(PAYROLL_FORMAT, PAYROLL_FORMAT.template)).toEqual([]);
    const required = PAYROLL_REQUIRED_COLUMNS.map((field) => PAYROLL_COLUMNS[field][0] as string);
    expect(required).toEqual([
      PAYROLL_COLUMNS.ppsNumber[0],
      PAYROLL_COLUMNS.dateOfBirth[0],
      PAYROLL_COLUMNS.periodStart[0],
      PAYROLL_COLUMNS.periodEnd[0],
      PAYROLL_COLUMNS.grossPay[0],
    ]);
    expect(missingColumns(PAYROLL_FORMAT, required)).toEqual([]);
    expect(missingColumns(PAYROLL_FORMAT, required.slice(1))).toEqual(['PPS number']);
  });

  it('hides PPS numbers in the preview, under any of their headings', () => {
    expect(PAYROLL_FORMAT.private).toEqual(PAYROLL_COLUMNS.ppsNumber);
  });
});
