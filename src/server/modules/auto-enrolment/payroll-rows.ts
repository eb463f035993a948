import {
  PAYROLL_COLUMNS,
  PAYROLL_REQUIRED_COLUMNS,
  type PayrollColumn,
  PRSA_ARRANGEMENT,
} from '../../../contracts/auto-enrolment.js';
import { daysInPeriod, periodYearUnits } from '../../../contracts/auto-enrolment-rules.js';
import type { ImportIssue } from '../../../contracts/imports.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { memberFieldShape } from '../../../contracts/members.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { parsePpsNumber } from '../../../contracts/pps-number.js';
import { CONTROL_CHARACTER_REASON } from '../../../contracts/text.js';
import type { PpsKeyring } from '../../crypto/pps-keyring.js';
import { type Columns, missingColumn, readHeadings } from '../imports/csv-columns.js';
import { parseCsvDate, parseEuroCents } from '../imports/csv-values.js';
import type { RowReader } from '../imports/import-kind.js';
import { copyHexArray, copyLine } from '../imports/spool-file.js';

/** A pay period is at most a calendar month: a longer one is a mistake in the file. */
const MAX_PERIOD_DAYS = 31;

/**
 * How many distinct date cells, and distinct pay periods, one upload remembers the reading of. A
 * year of weekly payroll names 52 periods and one date of birth a person, each on every line of
 * theirs: read once each, checking the rows takes a fifth less time than reading them on every
 * line (docs/decisions.md, "Auto-enrolment readiness (issue 20)", the benchmark). Past the bound a
 * cell is read as it comes, so an adversarial file of all different dates holds no more memory.
 */
const MAX_REMEMBERED = 16_384;

/** `read`, with its answers for up to MAX_REMEMBERED distinct arguments kept. */
function remembered<T>(read: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    const found = known.get(key);
    if (found !== undefined) return found;
    const answer = read(key);
    if (known.size < MAX_REMEMBERED) known.set(key, answer);
    return answer;
  };
}

/** The columns of the staged lines, in the order of each COPY line. */
export const PAYROLL_LINE_COLUMNS = [
  'line',
  'person',
  'period_start',
  'period_end',
  'year_units',
  'gross_cents',
  'employee_cents',
  'employer_cents',
  'arrangement',
  'scheme_id',
] as const;

/** The columns of the staged people: one row per distinct PPS number in the file. */
export const PAYROLL_PERSON_COLUMNS = [
  'person',
  'first_line',
  'id',
  'pps_encrypted',
  'pps_lookup',
  'pps_key_id',
  'pps_lookups',
  'first_name',
  'last_name',
  'date_of_birth',
] as const;

export interface PayrollScope {
  brokerId: string;
  employerId: string;
  at: Date;
  /** The employer's live schemes, by id: what the Arrangement column may name. */
  schemeIds: ReadonlySet<string>;
}

interface Person {
  key: number;
  firstLine: number;
  ppsNumber: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string;
}

export interface PayrollRowReader extends RowReader {
  /**
   * The people of the file as COPY lines; call after the last row. A person whose lookup hash is
   * among `stored` (the employer's payroll already has them) keeps their stored sealed number, so
   * theirs is not sealed again; every other PPS number is sealed once.
   */
  people(stored: ReadonlySet<string>): Generator<string>;
  readonly peopleCount: number;
}

const nameRules = { firstName: memberFieldShape.firstName, lastName: memberFieldShape.lastName };

/**
 * The rows of an employer's payroll file (docs/imports.md, "Payroll"), one at a time as they
 * arrive. A person is kept once however many pay periods name them, by their normalised PPS
 * number, so the number is sealed once per upload, not once per line; the last row naming them
 * gives their name and date of birth.
 */
export function createPayrollRows(
  scope: PayrollScope,
  deps: { ppsKeyring: PpsKeyring; nextId: () => string },
): PayrollRowReader {
  const today = todayInIreland(scope.at);
  const people = new Map<string, Person>();
  const readDate = remembered(parseCsvDate);
  // Keyed `start/end` on the dates as read (YYYY-MM-DD each); answers the period's length check
  // and its share of a year together.
  const readPeriod = remembered((key) => {
    const [start, end] = key.split('/') as [string, string];
    if (end < start) return { fault: FIELD_MESSAGES.endAfterStart, yearUnits: 0 };
    if (daysInPeriod(start, end) > MAX_PERIOD_DAYS) {
      return { fault: 'A pay period is at most a calendar month', yearUnits: 0 };
    }
    return { fault: null, yearUnits: periodYearUnits(start, end) };
  });
  let columns: Columns<PayrollColumn> | null = null;
  let rowsToWrite = 0;

  return {
    get rowsToWrite() {
      return rowsToWrite;
    },
    get peopleCount() {
      return people.size;
    },
    heading: (field) => (columns ? columns.heading(field as PayrollColumn) : field),

    readHeader(cells, line) {
      const read = readHeadings(cells, line, PAYROLL_COLUMNS);
      columns = read.columns;
      const issues = read.issues;
      for (const field of PAYROLL_REQUIRED_COLUMNS) {
        if (!read.columns.has(field)) {
          issues.push(
            missingColumn(line, PAYROLL_COLUMNS[field][0], PAYROLL_COLUMNS[field].join(', ')),
          );
        }
      }
      return issues;
    },

    readRow(cells, line) {
      if (columns === null) throw new Error('readRow before readHeader');
      const layout = columns;
      const issues: ImportIssue[] = layout.strayCells(cells, line);
      const refuse = (field: PayrollColumn, code: string, message: string) =>
        issues.push({ line, column: layout.heading(field), code, message });
      const cell = (field: PayrollColumn) => layout.cell(cells, field);

      const ppsCell = cell('ppsNumber');
      const ppsNumber = ppsCell === '' ? null : parsePpsNumber(ppsCell.slice(0, 32));
      if (ppsCell === '') refuse('ppsNumber', 'required', FIELD_MESSAGES.required);
      else if (ppsNumber === null) {
        refuse('ppsNumber', 'invalid_pps_number', FIELD_MESSAGES.ppsNumber);
      }

      const names: Record<'firstName' | 'lastName', string | null> = {
        firstName: null,
        lastName: null,
      };
      for (const field of ['firstName', 'lastName'] as const) {
        const given = cell(field);
        if (given === '') continue;
        const checked = nameRules[field].safeParse(given);
        if (checked.success) names[field] = checked.data;
        else {
          const issue = checked.error.issues[0];
          const reason = (issue as { params?: { reason?: unknown } } | undefined)?.params?.reason;
          refuse(
            field,
            reason === CONTROL_CHARACTER_REASON
              ? 'control_character'
              : issue?.code === 'too_big'
                ? 'too_long'
                : 'invalid_value',
            issue?.message ?? FIELD_MESSAGES.required,
          );
        }
      }

      const date = (field: 'dateOfBirth' | 'periodStart' | 'periodEnd'): string | null => {
        const text = cell(field);
        if (text === '') {
          refuse(field, 'required', FIELD_MESSAGES.required);
          return null;
        }
        const parsed = readDate(text);
        if (!parsed.ok) {
          refuse(field, parsed.code, parsed.message);
          return null;
        }
        return parsed.value;
      };
      const dateOfBirth = date('dateOfBirth');
      if (dateOfBirth !== null && dateOfBirth > today) {
        refuse('dateOfBirth', 'invalid_date', FIELD_MESSAGES.bornInFuture);
      }
      const periodStart = date('periodStart');
      const periodEnd = date('periodEnd');
      const period =
        periodStart !== null && periodEnd !== null
          ? readPeriod(`${periodStart}/${periodEnd}`)
          : null;
      if (period?.fault) refuse('periodEnd', 'invalid_period', period.fault);

      const amount = (
        field: 'grossPay' | 'employeePension' | 'employerPension',
        required: boolean,
      ) => {
        const text = cell(field);
        if (text === '') {
          if (required) refuse(field, 'required', FIELD_MESSAGES.required);
          return 0;
        }
        const parsed = parseEuroCents(text);
        if (parsed.ok) return parsed.value;
        refuse(field, parsed.code, parsed.message);
        return 0;
      };
      const grossCents = amount('grossPay', true);
      const employeeCents = amount('employeePension', false);
      const employerCents = amount('employerPension', false);

      const named = cell('arrangement');
      let arrangement: 'scheme' | 'prsa' | 'none' = 'none';
      if (named.toUpperCase() === PRSA_ARRANGEMENT) arrangement = 'prsa';
      else if (named !== '') {
        if (scope.schemeIds.has(named)) arrangement = 'scheme';
        else {
          refuse(
            'arrangement',
            'unknown_arrangement',
            'is not a scheme of this employer: give the scheme’s id, PRSA, or leave it empty',
          );
        }
      }
      if (named === '' && employeeCents + employerCents > 0) {
        refuse(
          'arrangement',
          'arrangement_required',
          'names no arrangement for the pension deductions: give the scheme’s id or PRSA',
        );
      }

      if (issues.length > 0 || ppsNumber === null || dateOfBirth === null) return issues;
      if (periodStart === null || periodEnd === null || period === null) return issues;

      let person = people.get(ppsNumber);
      if (!person) {
        person = { key: people.size + 1, firstLine: line, ppsNumber, ...names, dateOfBirth };
        people.set(ppsNumber, person);
      } else {
        person.dateOfBirth = dateOfBirth;
        if (names.firstName !== null) person.firstName = names.firstName;
        if (names.lastName !== null) person.lastName = names.lastName;
      }
      rowsToWrite += 1;
      return copyLine([
        line,
        person.key,
        periodStart,
        periodEnd,
        period.yearUnits,
        grossCents,
        employeeCents,
        employerCents,
        arrangement,
        arrangement === 'scheme' ? named : null,
      ]);
    },

    *people(stored) {
      for (const person of people.values()) {
        const id = deps.nextId();
        const lookups = deps.ppsKeyring.lookups(scope.brokerId, person.ppsNumber);
        const sealed = lookups.some((lookup) => stored.has(lookup))
          ? null
          : deps.ppsKeyring.seal(person.ppsNumber, { tenantId: scope.brokerId, memberId: id });
        yield copyLine([
          person.key,
          person.firstLine,
          id,
          sealed?.encrypted ?? null,
          lookups[0] as string,
          sealed?.keyId ?? null,
          copyHexArray(lookups),
          person.firstName,
          person.lastName,
          person.dateOfBirth,
        ]);
      }
    },
  };
}
