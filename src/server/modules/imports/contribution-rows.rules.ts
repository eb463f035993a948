import { CONTRIBUTION_KINDS, type ContributionKind } from '../../../contracts/contributions.js';
import { isTooWide } from '../../../contracts/csv.js';
import type { ImportIssue } from '../../../contracts/imports.js';
import { CONTRIBUTION_COLUMNS, type ContributionColumn } from '../../../contracts/imports.js';
import { ppsNumber } from '../../../contracts/members.js';
import { cents } from '../../../contracts/money.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from '../../../contracts/text.js';
import type { PpsKeyring } from '../../platform/crypto/pps-keyring.js';
import { type Columns, missingColumn, readHeadings } from '../../platform/uploads/csv-columns.js';
import { parseEuroCents, parsePeriod } from '../../platform/uploads/csv-values.js';
import type { ImportScope, RowReader } from '../../platform/uploads/import-kind.js';
import type { createRowIdSource } from '../../platform/uploads/row-ids.js';
import { copyHexArray, copyLine } from '../../platform/uploads/spool-file.js';
import { OTHER_ARRANGEMENT, thisSchemeArrangement } from './arrangement.rules.js';

/** The columns of the staging table, in the order of each COPY line. */
export const CONTRIBUTION_STAGING_COLUMNS = [
  'line',
  'member_ref',
  'pps_lookups',
  'period',
  'employee_id',
  'employee_cents',
  'employer_id',
  'employer_cents',
  'avc_id',
  'avc_cents',
] as const;

const MAX_MEMBER_ID_LENGTH = 64;

export interface ContributionRowDeps {
  ppsKeyring: PpsKeyring;
  nextId: ReturnType<typeof createRowIdSource>;
}

/**
 * The rows of a contributions file: the member by PPS number or member id (both, when both are
 * given, must name the same member), the pay period, and one amount per kind. An empty amount
 * records nothing of that kind; `0` records an explicit zero. An Arrangement column, as payroll
 * exports write it, may name this scheme on each row, or be left empty. Each amount becomes one row of
 * `contributions`, with an id of its own drawn here.
 */
export function createContributionRows(scope: ImportScope, deps: ContributionRowDeps): RowReader {
  let columns: Columns<ContributionColumn> | null = null;
  let kinds: ContributionKind[] = [];
  /** The headings name every required column: rows can be staged. */
  let complete = false;
  let rowsToWrite = 0;
  const namesThisScheme = thisSchemeArrangement(scope);

  return {
    get rowsToWrite() {
      return rowsToWrite;
    },
    heading: (field) => (columns ? columns.heading(field as ContributionColumn) : field),

    readHeader(cells, line) {
      const read = readHeadings(cells, line, CONTRIBUTION_COLUMNS);
      columns = read.columns;
      kinds = CONTRIBUTION_KINDS.filter((kind) => read.columns.has(kind));
      const issues = read.issues;
      if (!read.columns.has('ppsNumber') && !read.columns.has('memberId')) {
        issues.push(
          missingColumn(
            line,
            CONTRIBUTION_COLUMNS.ppsNumber[0],
            [...CONTRIBUTION_COLUMNS.ppsNumber, ...CONTRIBUTION_COLUMNS.memberId].join(', '),
          ),
        );
      }
      if (!read.columns.has('period')) {
        issues.push(
          missingColumn(
            line,
            CONTRIBUTION_COLUMNS.period[0],
            CONTRIBUTION_COLUMNS.period.join(', '),
          ),
        );
      }
      if (kinds.length === 0) {
        issues.push(
          missingColumn(
            line,
            CONTRIBUTION_COLUMNS.employee[0],
            CONTRIBUTION_KINDS.map((kind) => CONTRIBUTION_COLUMNS[kind][0]).join(', '),
          ),
        );
      }
      complete = !issues.some((issue) => issue.code === 'missing_column');
      return issues;
    },

    readRow(cells, line) {
      if (columns === null) throw new Error('readRow before readHeader');
      const layout = columns;
      const issues: ImportIssue[] = layout.strayCells(cells, line);
      // Its cells may be under the wrong headings: what is said of them would mislead.
      if (issues.some(isTooWide)) return issues;
      const refuse = (field: ContributionColumn | null, code: string, message: string) =>
        issues.push({ line, column: field && layout.heading(field), code, message });

      const memberRef = layout.cell(cells, 'memberId');
      const ppsCell = layout.cell(cells, 'ppsNumber');
      let lookups: string[] | null = null;
      // A required column the headings lack is reported once, on the heading line, not on
      // every row: each row is checked by the columns there are.
      const namesMember = layout.has('ppsNumber') || layout.has('memberId');
      if (namesMember && memberRef === '' && ppsCell === '') {
        refuse(
          layout.has('ppsNumber') ? 'ppsNumber' : 'memberId',
          'required',
          'Give a PPS number or a member id to name the member',
        );
      }
      if (memberRef.length > MAX_MEMBER_ID_LENGTH) {
        refuse('memberId', 'invalid_member_id', 'This is too long to be a member id');
      } else if (hasControlCharacters(memberRef)) {
        // The reference goes into the staging COPY; PostgreSQL cannot store a NUL.
        refuse('memberId', 'control_character', CONTROL_CHARACTER_MESSAGE);
      }
      if (ppsCell !== '') {
        const checked = ppsNumber.safeParse(ppsCell);
        if (checked.success) lookups = deps.ppsKeyring.lookups(scope.brokerId, checked.data);
        else refuse('ppsNumber', 'invalid_pps_number', checked.error.issues[0]?.message ?? '');
      }

      if (!namesThisScheme(layout.cell(cells, 'arrangement'))) {
        refuse('arrangement', OTHER_ARRANGEMENT.code, OTHER_ARRANGEMENT.message);
      }

      const periodCell = layout.cell(cells, 'period');
      const period = periodCell === '' ? null : parsePeriod(periodCell);
      if (period === null && layout.has('period')) {
        refuse('period', 'required', FIELD_MESSAGES.required);
      } else if (period !== null && !period.ok) refuse('period', period.code, period.message);

      const amounts = new Map<ContributionKind, number>();
      let amountRefused = false;
      for (const kind of kinds) {
        const cell = layout.cell(cells, kind);
        if (cell === '') continue;
        const parsed = parseEuroCents(cell);
        const checked = parsed.ok ? cents.safeParse(parsed.value) : null;
        if (!parsed.ok) refuse(kind, parsed.code, parsed.message);
        else if (checked && !checked.success) {
          refuse(kind, 'invalid_amount', checked.error.issues[0]?.message ?? '');
        } else {
          amounts.set(kind, parsed.value);
          continue;
        }
        amountRefused = true;
      }
      if (kinds.length > 0 && amounts.size === 0 && !amountRefused) {
        refuse(
          null,
          'no_amount',
          `has no amount: fill in at least one of ${kinds.map((kind) => layout.heading(kind)).join(', ')}`,
        );
      }
      if (issues.length > 0 || period === null || !period.ok || !complete) return issues;

      rowsToWrite += amounts.size;
      const amountCells = CONTRIBUTION_KINDS.flatMap((kind) => {
        const amount = amounts.get(kind);
        return amount === undefined ? [null, null] : [deps.nextId(), amount];
      });
      return copyLine([
        line,
        memberRef === '' ? null : memberRef,
        lookups === null ? null : copyHexArray(lookups),
        period.value,
        ...amountCells,
      ]);
    },
  };
}
