import {
  PAYROLL_COLUMNS,
  PAYROLL_REQUIRED_COLUMNS,
  type PayrollColumn,
  PRSA_ARRANGEMENT,
} from '../../../contracts/auto-enrolment.js';
import { daysInPeriod, periodYearUnits } from '../../../contracts/auto-enrolment-rules.js';
import { isTooWide } from '../../../contracts/csv.js';
import { type ImportIssue, schemeNamer } from '../../../contracts/imports.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { memberFieldShape } from '../../../contracts/members.js';
import { plainEuroCents } from '../../../contracts/money.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { parsePpsNumber } from '../../../contracts/pps-number.js';
import { CONTROL_CHARACTER_REASON } from '../../../contracts/text.js';
import type { PpsKeyring } from '../../platform/crypto/pps-keyring.js';
import { type Columns, missingColumn, readHeadings } from '../../platform/uploads/csv-columns.js';
import { parseCsvDate, parseEuroCents } from '../../platform/uploads/csv-values.js';
import type { FoundIssues, RowReader } from '../../platform/uploads/import-kind.js';
import { copyValue } from '../../platform/uploads/spool-file.js';
import {
  dateNumber,
  isoOfDateNumber,
  NO_ARRANGEMENT,
  PayLinesWriter,
  PRSA,
} from './pay-lines.rules.js';

/** A pay period is at most a calendar month: a longer one is a mistake in the file. */
const MAX_PERIOD_DAYS = 31;

/**
 * How many distinct date cells, and distinct pay periods, one upload remembers the reading of. A
 * year of weekly payroll names 52 periods and one date of birth a person, each on every line of
 * theirs: read once each, checking the rows takes a fifth less time than reading them on every
 * line (docs/decisions/0074-reading-a-payroll-upload-faster.md, the benchmark). Past the bound a
 * cell is read as it comes, so an adversarial file of all different dates holds no more memory.
 */
const MAX_REMEMBERED = 16_384;

/**
 * `read`, with its answers for up to MAX_REMEMBERED distinct arguments kept, and the last answer
 * compared first: a payroll gives the same pay period, or the same person, on line after line.
 */
function remembered<K, T>(read: (key: K) => T): (key: K) => T {
  const known = new Map<K, T>();
  let lastKey: K | undefined;
  let lastAnswer: T | undefined;
  return (key) => {
    if (lastAnswer !== undefined && lastKey === key) return lastAnswer;
    let answer = known.get(key);
    if (answer === undefined) {
      answer = read(key);
      if (known.size < MAX_REMEMBERED) known.set(key, answer);
    }
    lastKey = key;
    lastAnswer = answer;
    return answer;
  };
}

/** `read`, with its answers for up to MAX_REMEMBERED distinct pairs of arguments kept. */
function rememberedPair<T>(read: (first: string, second: string) => T) {
  const known = new Map<string, Map<string, T>>();
  let size = 0;
  let lastFirst = '';
  let lastSecond = '';
  let lastAnswer: T | undefined;
  return (first: string, second: string): T => {
    if (lastAnswer !== undefined && lastFirst === first && lastSecond === second) return lastAnswer;
    lastAnswer = lookUp(first, second);
    lastFirst = first;
    lastSecond = second;
    return lastAnswer;
  };

  function lookUp(first: string, second: string): T {
    let seconds = known.get(first);
    const found = seconds?.get(second);
    if (found !== undefined) return found;
    const answer = read(first, second);
    if (size < MAX_REMEMBERED) {
      if (seconds === undefined) {
        seconds = new Map();
        known.set(first, seconds);
      }
      seconds.set(second, answer);
      size += 1;
    }
    return answer;
  }
}

/** The columns of the staged people: one row per distinct PPS number the upload must write. */
export const PAYROLL_PERSON_COLUMNS = [
  'id',
  'stored_id',
  'pps_encrypted',
  'pps_lookup',
  'pps_key_id',
  'first_name',
  'last_name',
  'date_of_birth',
] as const;

/** What the employer's payroll already holds of a person, found by their PPS lookup hash. */
export interface StoredPerson {
  id: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string;
}

/**
 * One upload's pay lines as `payroll_upload_lines` stores them (pay-lines.rules.ts), but for the
 * employees' ids, known once `people` has run (`employeeIds`). `lines` is being deflated while the
 * upload goes on: it is awaited where it is written.
 */
export interface PayLinesDocument {
  lines: Promise<Buffer>;
  lineCount: number;
  payPeriods: number;
  firstPeriodStart: string;
  lastPeriodEnd: string;
  schemeIds: string[];
}

export interface PayrollScope {
  brokerId: string;
  employerId: string;
  at: Date;
  /** The employer's live schemes: what the Arrangement column may name, by id or by name. */
  schemes: ReadonlyArray<{ id: string; name: string }>;
}

interface Person {
  index: number;
  ppsNumber: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string;
}

/**
 * The accepted lines of one upload, a column each, in the order they were read. A 25 MiB file
 * holds at most about 700,000 lines, 48 bytes each here: the upload keeps them in memory until it
 * ends, in place of the spool file the imports write, because it stores them person by person in
 * one value (pay-lines.rules.ts; docs/decisions/0075-pay-lines-one-row-per-upload.md).
 */
class PayLines {
  length = 0;
  line = new Int32Array(1024);
  person = new Int32Array(1024);
  start = new Int32Array(1024);
  end = new Int32Array(1024);
  yearUnits = new Int32Array(1024);
  arrangement = new Int32Array(1024);
  gross = new Float64Array(1024);
  employee = new Float64Array(1024);
  employer = new Float64Array(1024);

  add(
    line: number,
    person: number,
    start: number,
    end: number,
    yearUnits: number,
    arrangement: number,
    gross: number,
    employee: number,
    employer: number,
  ): void {
    if (this.length === this.line.length) this.grow();
    const at = this.length;
    this.line[at] = line;
    this.person[at] = person;
    this.start[at] = start;
    this.end[at] = end;
    this.yearUnits[at] = yearUnits;
    this.arrangement[at] = arrangement;
    this.gross[at] = gross;
    this.employee[at] = employee;
    this.employer[at] = employer;
    this.length = at + 1;
  }

  private grow(): void {
    const size = this.line.length * 2;
    const wider = <A extends Int32Array | Float64Array>(column: A, make: (n: number) => A): A => {
      const next = make(size);
      next.set(column);
      return next;
    };
    const ints = (n: number) => new Int32Array(n);
    const doubles = (n: number) => new Float64Array(n);
    this.line = wider(this.line, ints);
    this.person = wider(this.person, ints);
    this.start = wider(this.start, ints);
    this.end = wider(this.end, ints);
    this.yearUnits = wider(this.yearUnits, ints);
    this.arrangement = wider(this.arrangement, ints);
    this.gross = wider(this.gross, doubles);
    this.employee = wider(this.employee, doubles);
    this.employer = wider(this.employer, doubles);
  }

  /**
   * The lines' places grouped by person (people in the order first read), each person's in period
   * order, lines of the same period in the order read; and where each person's run begins.
   */
  byPerson(people: number): { order: Int32Array; begins: Int32Array } {
    const begins = new Int32Array(people + 1);
    for (let at = 0; at < this.length; at += 1) {
      const person = this.person[at] as number;
      begins[person + 1] = (begins[person + 1] as number) + 1;
    }
    for (let person = 0; person < people; person += 1) {
      begins[person + 1] = (begins[person + 1] as number) + (begins[person] as number);
    }
    const next = begins.slice(0, people);
    const order = new Int32Array(this.length);
    for (let at = 0; at < this.length; at += 1) {
      const person = this.person[at] as number;
      order[next[person] as number] = at;
      next[person] = (next[person] as number) + 1;
    }
    // Payroll files come in period order, so a person's run is most often sorted already; one
    // that is not is sorted by period, then by the order read (places grow as lines are read).
    const byPeriod = (a: number, b: number) =>
      (this.start[a] as number) - (this.start[b] as number) || a - b;
    for (let person = 0; person < people; person += 1) {
      const run = order.subarray(begins[person] as number, begins[person + 1] as number);
      for (let at = 1; at < run.length; at += 1) {
        if (byPeriod(run[at - 1] as number, run[at] as number) > 0) {
          run.sort(byPeriod);
          break;
        }
      }
    }
    return { order, begins };
  }
}

export interface PayrollRowReader extends RowReader {
  /**
   * The lines that give a person's pay period a second time, each naming the line that gave it
   * first: the first `limit` by line, and how many there are. Call after the last row.
   */
  repeatedPeriods(ppsHeading: string, limit: number): FoundIssues;
  /**
   * The people the upload must write, as COPY lines; call after the last row. A person whose
   * lookup hash is a key of `stored` (the employer's payroll already has them) keeps their stored
   * id and sealed number, and is staged only when the file says something new of them (a name
   * given replaces none); every other PPS number is sealed once and staged under a new id.
   */
  people(stored: ReadonlyMap<string, StoredPerson>): Generator<string>;
  /**
   * The lines that give a person already stored a pay period an earlier upload gave: `earlier`
   * holds, by stored id, the period starts (YYYYMMDD numbers) the stored uploads give them. The
   * first `limit` by line, and how many there are. Call after `people`.
   */
  alreadyGiven(
    earlier: ReadonlyMap<string, ReadonlySet<number>>,
    periodHeading: string,
    limit: number,
  ): FoundIssues;
  /** The lines as stored, people by their place; call after the last row. */
  document(): PayLinesDocument;
  /** Each person's id by their place, as `people` gave them; call after `people`. */
  employeeIds(): string[];
  readonly peopleCount: number;
}

const nameRules = { firstName: memberFieldShape.firstName, lastName: memberFieldShape.lastName };

const UNKNOWN_ARRANGEMENT =
  'is not the name or id of a scheme of this employer: give the scheme’s name or id, PRSA, or leave it empty';
const AMBIGUOUS_ARRANGEMENT =
  'is the name of more than one scheme of this employer: give the scheme’s id instead';
const ARRANGEMENT_REQUIRED =
  'names no arrangement for the pension deductions: give the scheme’s name or id, or PRSA';

/** The issue of one cell, under the column's heading as the file writes it. */
function cellIssue(
  layout: Columns<PayrollColumn>,
  line: number,
  field: PayrollColumn,
  code: string,
  message: string,
): ImportIssue {
  return { line, column: layout.heading(field), code, message };
}

/** A name cell by the member form's rule: the name, or the issue (null for an empty cell). */
function readName(
  layout: Columns<PayrollColumn>,
  cells: readonly string[],
  line: number,
  field: 'firstName' | 'lastName',
  issues: ImportIssue[],
): string | null {
  const given = layout.cell(cells, field);
  if (given === '') return null;
  const checked = nameRules[field].safeParse(given);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const reason = (issue as { params?: { reason?: unknown } } | undefined)?.params?.reason;
  issues.push(
    cellIssue(
      layout,
      line,
      field,
      reason === CONTROL_CHARACTER_REASON
        ? 'control_character'
        : issue?.code === 'too_big'
          ? 'too_long'
          : 'invalid_value',
      issue?.message ?? FIELD_MESSAGES.required,
    ),
  );
  return null;
}

/** An amount cell in cents; 0 for an empty cell, or after adding its issue. */
function readAmount(
  layout: Columns<PayrollColumn>,
  cells: readonly string[],
  line: number,
  field: 'grossPay' | 'employeePension' | 'employerPension',
  required: boolean,
  issues: ImportIssue[],
): number {
  const text = layout.cell(cells, field);
  if (text === '') {
    // A required column the headings lack is reported once, on the heading line.
    if (required && layout.has(field)) {
      issues.push(cellIssue(layout, line, field, 'required', FIELD_MESSAGES.required));
    }
    return 0;
  }
  const plain = plainEuroCents(text);
  if (plain >= 0) return plain;
  const parsed = parseEuroCents(text);
  if (parsed.ok) return parsed.value;
  issues.push(cellIssue(layout, line, field, parsed.code, parsed.message));
  return 0;
}

/**
 * The rows of an employer's payroll file (docs/imports.md, "Payroll"), one at a time as they
 * arrive. A person is kept once however many pay periods name them, by their normalised PPS
 * number, so the number is sealed once per upload, not once per line; the last row naming them
 * gives their name and date of birth. Accepted lines are kept (`PayLines`) and stored with their
 * person, so `readRow` answers null for a line it accepted.
 */
export function createPayrollRows(
  scope: PayrollScope,
  deps: { ppsKeyring: PpsKeyring; nextId: () => string },
): PayrollRowReader {
  const today = todayInIreland(scope.at);
  const people = new Map<string, Person>();
  const schemes = scope.schemes.map((scheme) => scheme.id);
  // A scheme by its id or its name, as payroll exports write it (contracts/imports.ts); read once
  // per distinct cell: a payroll names the same arrangement on line after line.
  const readArrangement = remembered(schemeNamer(scope.schemes));
  const lines = new PayLines();
  // A memory a date column, so that each compares a cell with the same column's last one.
  const readDate = {
    dateOfBirth: remembered(parseCsvDate),
    periodStart: remembered(parseCsvDate),
    periodEnd: remembered(parseCsvDate),
  };
  // A PPS cell is read once per upload however many pay periods name the person.
  const readPps = remembered((cell: string) => parsePpsNumber(cell.slice(0, 32)));
  // On the dates as read (YYYY-MM-DD each); answers the period's length check and its share of a
  // year together.
  const readPeriod = rememberedPair((start, end) => {
    const period = { fault: null as string | null, yearUnits: 0, start: 0, end: 0 };
    if (end < start) period.fault = FIELD_MESSAGES.endAfterStart;
    else if (daysInPeriod(start, end) > MAX_PERIOD_DAYS) {
      period.fault = 'A pay period is at most a calendar month';
    } else {
      period.yearUnits = periodYearUnits(start, end);
      period.start = dateNumber(start);
      period.end = dateNumber(end);
    }
    return period;
  });
  let columns: Columns<PayrollColumn> | null = null;
  /** The headings name every required column: rows can be kept. */
  let complete = false;
  let grouped: { order: Int32Array; begins: Int32Array } | null = null;
  /** Each person's id, by their place, once `people` has run: stored or new. */
  let personIds: string[] | null = null;
  /** Whether each person, by their place, was stored before this upload. */
  const wasStored: boolean[] = [];

  /** A date cell as `YYYY-MM-DD`, or null after adding its issue. */
  function readDateCell(
    layout: Columns<PayrollColumn>,
    cells: readonly string[],
    line: number,
    field: 'dateOfBirth' | 'periodStart' | 'periodEnd',
    issues: ImportIssue[],
  ): string | null {
    const text = layout.cell(cells, field);
    if (text === '') {
      // A column the headings lack is reported once, on the heading line.
      if (layout.has(field)) {
        issues.push(cellIssue(layout, line, field, 'required', FIELD_MESSAGES.required));
      }
      return null;
    }
    const parsed = readDate[field](text);
    if (parsed.ok) return parsed.value;
    issues.push(cellIssue(layout, line, field, parsed.code, parsed.message));
    return null;
  }

  const byPerson = () => {
    grouped ??= lines.byPerson(people.size);
    return grouped;
  };

  return {
    get rowsToWrite() {
      return lines.length;
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
      complete = PAYROLL_REQUIRED_COLUMNS.every((field) => read.columns.has(field));
      return issues;
    },

    readRow(cells, line) {
      if (columns === null) throw new Error('readRow before readHeader');
      const layout = columns;
      const issues: ImportIssue[] = layout.strayCells(cells, line);
      // Its cells may be under the wrong headings: what is said of them would mislead.
      if (issues.some(isTooWide)) return issues;

      const ppsCell = layout.cell(cells, 'ppsNumber');
      const ppsNumber = ppsCell === '' ? null : readPps(ppsCell);
      // Without a PPS column, reported once on the heading line.
      if (ppsCell === '' && layout.has('ppsNumber')) {
        issues.push(cellIssue(layout, line, 'ppsNumber', 'required', FIELD_MESSAGES.required));
      } else if (ppsCell !== '' && ppsNumber === null) {
        issues.push(
          cellIssue(layout, line, 'ppsNumber', 'invalid_pps_number', FIELD_MESSAGES.ppsNumber),
        );
      }
      const firstName = readName(layout, cells, line, 'firstName', issues);
      const lastName = readName(layout, cells, line, 'lastName', issues);

      const dateOfBirth = readDateCell(layout, cells, line, 'dateOfBirth', issues);
      if (dateOfBirth !== null && dateOfBirth > today) {
        issues.push(
          cellIssue(layout, line, 'dateOfBirth', 'invalid_date', FIELD_MESSAGES.bornInFuture),
        );
      }
      const periodStart = readDateCell(layout, cells, line, 'periodStart', issues);
      const periodEnd = readDateCell(layout, cells, line, 'periodEnd', issues);
      const period =
        periodStart !== null && periodEnd !== null ? readPeriod(periodStart, periodEnd) : null;
      if (period?.fault) {
        issues.push(cellIssue(layout, line, 'periodEnd', 'invalid_period', period.fault));
      }

      const grossCents = readAmount(layout, cells, line, 'grossPay', true, issues);
      const employeeCents = readAmount(layout, cells, line, 'employeePension', false, issues);
      const employerCents = readAmount(layout, cells, line, 'employerPension', false, issues);

      const named = layout.cell(cells, 'arrangement');
      let arrangement = NO_ARRANGEMENT;
      if (named === '') {
        if (employeeCents + employerCents > 0) {
          issues.push(
            cellIssue(layout, line, 'arrangement', 'arrangement_required', ARRANGEMENT_REQUIRED),
          );
        }
      } else if (named.toUpperCase() === PRSA_ARRANGEMENT) arrangement = PRSA;
      else {
        const scheme = readArrangement(named);
        if (typeof scheme === 'number') arrangement = scheme;
        else if (scheme === 'ambiguous') {
          issues.push(
            cellIssue(layout, line, 'arrangement', 'ambiguous_arrangement', AMBIGUOUS_ARRANGEMENT),
          );
        } else {
          issues.push(
            cellIssue(layout, line, 'arrangement', 'unknown_arrangement', UNKNOWN_ARRANGEMENT),
          );
        }
      }

      if (
        issues.length > 0 ||
        !complete ||
        ppsNumber === null ||
        dateOfBirth === null ||
        period === null
      ) {
        return issues;
      }

      let person = people.get(ppsNumber);
      if (!person) {
        person = {
          index: people.size,
          ppsNumber,
          firstName,
          lastName,
          dateOfBirth,
        };
        people.set(ppsNumber, person);
      } else {
        person.dateOfBirth = dateOfBirth;
        if (firstName !== null) person.firstName = firstName;
        if (lastName !== null) person.lastName = lastName;
      }
      lines.add(
        line,
        person.index,
        period.start,
        period.end,
        period.yearUnits,
        arrangement,
        grossCents,
        employeeCents,
        employerCents,
      );
      return null;
    },

    repeatedPeriods(ppsHeading, limit) {
      const { order, begins } = byPerson();
      const repeated: Array<{ line: number; first: number }> = [];
      for (let person = 0; person < people.size; person += 1) {
        let first = -1;
        for (let at = begins[person] as number; at < (begins[person + 1] as number); at += 1) {
          const line = order[at] as number;
          if (first >= 0 && lines.start[first] === lines.start[line]) {
            repeated.push({ line: lines.line[line] as number, first: lines.line[first] as number });
          } else first = line;
        }
      }
      repeated.sort((a, b) => a.line - b.line);
      return {
        issues: repeated.slice(0, limit).map(
          ({ line, first }): ImportIssue => ({
            line,
            column: ppsHeading,
            code: 'duplicate_in_file',
            message: `is the same person and pay period as on line ${first}`,
          }),
        ),
        total: repeated.length,
      };
    },

    *people(stored) {
      const ids: string[] = [];
      wasStored.length = 0;
      for (const person of people.values()) {
        const lookups = deps.ppsKeyring.lookups(scope.brokerId, person.ppsNumber);
        let known: StoredPerson | null = null;
        for (const lookup of lookups) known ??= stored.get(lookup) ?? null;
        wasStored.push(known !== null);
        if (known !== null) {
          ids.push(known.id);
          const firstName = person.firstName ?? known.firstName;
          const lastName = person.lastName ?? known.lastName;
          if (
            firstName === known.firstName &&
            lastName === known.lastName &&
            person.dateOfBirth === known.dateOfBirth
          ) {
            continue;
          }
        }
        const id = known?.id ?? deps.nextId();
        if (known === null) ids.push(id);
        const sealed =
          known === null
            ? deps.ppsKeyring.seal(person.ppsNumber, { tenantId: scope.brokerId, memberId: id })
            : null;
        yield `${[
          id,
          known?.id ?? null,
          sealed?.encrypted ?? null,
          lookups[0] as string,
          sealed?.keyId ?? null,
          person.firstName,
          person.lastName,
          person.dateOfBirth,
        ]
          .map(copyValue)
          .join('\t')}\n`;
      }
      personIds = ids;
    },

    alreadyGiven(earlier, periodHeading, limit) {
      const ids = personIds;
      if (ids === null) throw new Error('alreadyGiven before people');
      const found: number[] = [];
      for (let at = 0; at < lines.length; at += 1) {
        const person = lines.person[at] as number;
        if (!wasStored[person]) continue;
        const given = earlier.get(ids[person] as string);
        if (given?.has(lines.start[at] as number)) found.push(lines.line[at] as number);
      }
      return {
        issues: found.slice(0, limit).map(
          (line): ImportIssue => ({
            line,
            column: periodHeading,
            code: 'already_uploaded',
            message: 'is a pay period of this person that an earlier upload already gave',
          }),
        ),
        total: found.length,
      };
    },

    employeeIds() {
      if (personIds === null) throw new Error('employeeIds before people');
      return personIds;
    },

    document() {
      const { order, begins } = byPerson();
      const writer = new PayLinesWriter(lines.length);
      const periods = new Set<number>();
      let first = Number.POSITIVE_INFINITY;
      let last = 0;
      for (let person = 0; person < people.size; person += 1) {
        for (let at = begins[person] as number; at < (begins[person + 1] as number); at += 1) {
          const line = order[at] as number;
          const start = lines.start[line] as number;
          const end = lines.end[line] as number;
          if (start < first) first = start;
          if (end > last) last = end;
          // YYYYMMDD twice, below 10^16: exact as a number.
          periods.add(start * 100_000_000 + end);
          writer.add({
            person,
            periodStart: start,
            periodEnd: end,
            yearUnits: lines.yearUnits[line] as number,
            arrangement: lines.arrangement[line] as number,
            grossCents: lines.gross[line] as number,
            employeeCents: lines.employee[line] as number,
            employerCents: lines.employer[line] as number,
          });
        }
      }
      const packed = writer.finishPacked();
      // Awaited where it is written; an upload that fails before then must not leave it unhandled.
      packed.catch(() => undefined);
      return {
        lines: packed,
        lineCount: lines.length,
        payPeriods: periods.size,
        firstPeriodStart: isoOfDateNumber(first),
        lastPeriodEnd: isoOfDateNumber(last),
        schemeIds: schemes,
      };
    },
  };
}
