import type { PayrollUploadSummary } from '../../../contracts/auto-enrolment';
import type { AeStatus, CostYear } from '../../../contracts/auto-enrolment-rules';
import { arrangementKey } from '../../../contracts/imports';
import { counted } from '../../../contracts/plain-english';
import { formatDate } from '../../format';

/**
 * How the automatic-enrolment pages put the assessment into words. The rules, their sentences and
 * their sources are the rule module's (contracts/auto-enrolment-rules.ts) and come with each
 * reason in the assessment, and so are the statuses' names (AE_STATUS_LABELS), which the CSV
 * export and the PDF summary use too, and what each status means (AE_STATUS_MEANINGS); this only
 * orders the statuses, colours them and arranges the figures for a page.
 */

/** The order statuses are read in: what the employer has to act on first. */
export const STATUS_ORDER: readonly AeStatus[] = [
  'below_standard',
  'likely_enrolled',
  'likely_exempt',
  'exempt',
  'not_eligible',
];

export const STATUS_COLORS: Record<AeStatus, string> = {
  below_standard: 'red',
  likely_enrolled: 'orange',
  likely_exempt: 'yellow',
  exempt: 'green',
  not_eligible: 'gray',
};

/** The filter of the employees' table: one status, or every employee. */
export type StatusFilter = AeStatus | 'all';

export function withStatus<T extends { status: AeStatus }>(
  employees: readonly T[],
  filter: StatusFilter,
): T[] {
  return filter === 'all' ? [...employees] : employees.filter((e) => e.status === filter);
}

/**
 * The employees in the order the table reads: by status, what needs acting on first, then the
 * largest shortfall first, then by name as the payroll gave it (Irish collation).
 */
export function inOrderOfAction<
  T extends { status: AeStatus; shortfallCents?: number; firstName?: string; lastName?: string },
>(employees: readonly T[]): T[] {
  const rank = (status: AeStatus) => STATUS_ORDER.indexOf(status);
  const collator = new Intl.Collator('en-IE', { sensitivity: 'base' });
  return [...employees].sort(
    (a, b) =>
      rank(a.status) - rank(b.status) ||
      (b.shortfallCents ?? 0) - (a.shortfallCents ?? 0) ||
      collator.compare(a.lastName ?? '', b.lastName ?? '') ||
      collator.compare(a.firstName ?? '', b.firstName ?? ''),
  );
}

/** Basis points as a percentage of pay: 150 as "1.5%", 600 as "6%". */
export function percentOfPay(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString('en-IE', { maximumFractionDigits: 2 })}%`;
}

/** One year of the cost comparison as the chart and its table show it. */
export interface CostRow {
  /** The calendar year, which is also its label: 2026 is year 1 of the rate schedule. */
  year: number;
  label: string;
  rate: string;
  myFutureFundCents: number;
  minimumStandardCents: number;
  /** Positive when My Future Fund costs the employer more than meeting the standard. */
  differenceCents: number;
}

export function costRows(years: readonly CostYear[]): CostRow[] {
  return years.map((year) => ({
    year: year.year,
    label: String(year.year),
    rate: percentOfPay(year.employerBasisPoints),
    myFutureFundCents: year.myFutureFundCents,
    minimumStandardCents: year.minimumStandardCents,
    differenceCents: year.myFutureFundCents - year.minimumStandardCents,
  }));
}

/** The calendar years the comparison covers, as the sentence above the chart says them. */
export function costSpan(rows: readonly CostRow[]): string {
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return '';
  return first.year === last.year ? String(first.year) : `${first.year} to ${last.year}`;
}

/** Both totals over the years shown, for the sentence above the chart. */
export function costTotals(rows: readonly CostRow[]) {
  return {
    myFutureFundCents: rows.reduce((sum, row) => sum + row.myFutureFundCents, 0),
    minimumStandardCents: rows.reduce((sum, row) => sum + row.minimumStandardCents, 0),
  };
}

/**
 * An employee as the payroll names them. Names are optional in a payroll file, and a PPS number
 * is never shown in a report, so an employee the payroll did not name is said to be unnamed.
 */
export function employeeName(employee: { firstName?: string; lastName?: string }): string {
  const name = [employee.firstName, employee.lastName].filter(Boolean).join(' ');
  return name === '' ? 'Name not given in the payroll' : name;
}

/** The days an upload's pay lines span, and how many pay periods; none for one that wrote none. */
export function periodsCovered(
  upload: Pick<PayrollUploadSummary, 'payPeriods' | 'periodStart' | 'periodEnd'>,
): string {
  if (upload.periodStart === null || upload.periodEnd === null) return 'None';
  return `${formatDate(upload.periodStart)} to ${formatDate(upload.periodEnd)} (${counted(upload.payPeriods, 'period')})`;
}

/**
 * The schemes the Arrangement column of a payroll file may name, each by its name (docs/imports.md,
 * "Payroll"). A scheme's id is for the page only where another of the employer's schemes has the
 * same name, compared as the service compares them (`arrangementKey`): there only the id tells
 * them apart; elsewhere the name is what the employer knows it by.
 */
export function arrangementChoices<T extends { id: string; name: string }>(
  schemes: readonly T[],
): Array<T & { sharesName: boolean }> {
  const named = new Map<string, number>();
  for (const scheme of schemes) {
    const key = arrangementKey(scheme.name);
    named.set(key, (named.get(key) ?? 0) + 1);
  }
  return schemes.map((scheme) => ({
    ...scheme,
    sharesName: (named.get(arrangementKey(scheme.name)) ?? 0) > 1,
  }));
}
