import {
  dateNumber,
  NO_ARRANGEMENT,
  PAY_LINES_FORMAT,
  PayLinesWriter,
  PRSA,
  RECORDS_FORMAT,
} from '../../src/server/modules/auto-enrolment/pay-lines.rules.js';
import type { payrollUploadLines } from '../../src/server/platform/db/schema.js';

/** A pay line as a test writes it: ISO dates, the arrangement by name. */
export interface GivenLine {
  employeeId: string;
  start: string;
  end: string;
  grossCents: number;
  employeeCents?: number;
  employerCents?: number;
  /** `none` (the default), `prsa`, or a scheme id. */
  arrangement?: string;
  yearUnits?: number;
}

/**
 * A row of `payroll_upload_lines` holding the given lines, in the stored format (pay-lines.rules.ts):
 * people and schemes numbered as first named, each person's lines in the order given; deflated
 * (format 2) as uploads write them unless told otherwise.
 */
export async function payLinesRow(
  target: { brokerId: string; uploadId: string; employerId: string },
  given: readonly GivenLine[],
  format: typeof PAY_LINES_FORMAT | typeof RECORDS_FORMAT = PAY_LINES_FORMAT,
): Promise<typeof payrollUploadLines.$inferInsert> {
  const employeeIds = [...new Set(given.map((line) => line.employeeId))];
  const schemeIds = [
    ...new Set(
      given
        .map((line) => line.arrangement ?? 'none')
        .filter((arrangement) => arrangement !== 'none' && arrangement !== 'prsa'),
    ),
  ];
  const ordered = employeeIds.flatMap((id) => given.filter((line) => line.employeeId === id));
  const writer = new PayLinesWriter(ordered.length);
  for (const line of ordered) {
    const arrangement = line.arrangement ?? 'none';
    writer.add({
      person: employeeIds.indexOf(line.employeeId),
      periodStart: dateNumber(line.start),
      periodEnd: dateNumber(line.end),
      yearUnits: line.yearUnits ?? 52,
      arrangement:
        arrangement === 'none'
          ? NO_ARRANGEMENT
          : arrangement === 'prsa'
            ? PRSA
            : schemeIds.indexOf(arrangement),
      grossCents: line.grossCents,
      employeeCents: line.employeeCents ?? 0,
      employerCents: line.employerCents ?? 0,
    });
  }
  const starts = given.map((line) => line.start).sort();
  const ends = given.map((line) => line.end).sort();
  return {
    ...target,
    format,
    lineCount: given.length,
    payPeriods: new Set(given.map((line) => `${line.start}/${line.end}`)).size,
    firstPeriodStart: starts[0] as string,
    lastPeriodEnd: ends.at(-1) as string,
    employeeIds,
    schemeIds,
    lines: format === RECORDS_FORMAT ? writer.finish() : await writer.finishPacked(),
  };
}
