/**
 * The stored form of one payroll upload's pay lines (docs/decisions/0075-pay-lines-one-row-per-upload.md):
 * one `bytea` an upload in `payroll_upload_lines.lines`, a record of
 * LINE_BYTES a line, people in the order of the row's `employee_ids`, each person's lines in period
 * order. A payroll upload is never changed once written, only read by window and deleted whole, so
 * it is kept as one value rather than a row a line or a person: writing 130,000 lines costs one row
 * of keys, indexes and row-level security, not 130,000 or 10,000.
 *
 * Every field is big-endian (as PostgreSQL's `int4send` and `int8send` write them, which is how
 * migration 0029 carried stored lines over). Format 1 is the records as they are, which only that
 * migration writes; format 2, what uploads write, is the same records compressed with raw DEFLATE
 * (RFC 1951) at level 1: a quarter of weekly payroll for 10,000 people is 5.7 MB of records and
 * about 1 MB deflated, which the database writes and hands back in a tenth of the time.
 *
 *   offset  size  field
 *        0     4  person: the place of the employee's id in `employee_ids`, from 0
 *        4     4  period start as the number YYYYMMDD
 *        8     4  period end as the number YYYYMMDD
 *       12     4  the period's share of a year (contracts/auto-enrolment-rules.ts, YEAR_UNITS)
 *       16     4  arrangement: -2 none, -1 a PRSA, else the place of the scheme in `scheme_ids`
 *       20     8  gross pay in cents
 *       28     8  the employee's pension deduction in cents
 *       36     8  the employer's pension contribution in cents
 *
 * The database checks the row (a known format, the bounds in order, and for format 1 a length of
 * LINE_BYTES a line); what it cannot see inside the value, `readPayLines` checks of every line it
 * reads, and that the value holds exactly the row's count of lines, so a damaged value fails the
 * read loudly rather than answering a wrong assessment.
 */

import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';

const deflated = promisify(deflateRaw);

/** The records as they are. */
export const RECORDS_FORMAT = 1;
/** The records deflated: what an upload writes. */
export const PAY_LINES_FORMAT = 2;
export const LINE_BYTES = 44;
export const NO_ARRANGEMENT = -2;
export const PRSA = -1;

const HIGH = 2 ** 32;
/** The largest amount a line can hold: cents as JavaScript numbers stay exact below 2^53. */
const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/** One pay line as read from the stored value. */
export interface PayLine {
  person: number;
  periodStart: number;
  periodEnd: number;
  yearUnits: number;
  arrangement: number;
  grossCents: number;
  employeeCents: number;
  employerCents: number;
}

/** A YYYYMMDD number, checked for shape only: the reader of the file checked the calendar. */
function isDateNumber(value: number): boolean {
  const month = Math.floor(value / 100) % 100;
  const day = value % 100;
  return (
    value >= 1000_01_01 && value <= 9999_12_31 && month >= 1 && month <= 12 && day >= 1 && day <= 31
  );
}

/** Writes lines one after another into a value sized for `count` of them. */
export class PayLinesWriter {
  readonly bytes: Buffer;
  private readonly view: DataView;
  private at = 0;

  constructor(readonly count: number) {
    this.bytes = Buffer.alloc(count * LINE_BYTES);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  add(line: PayLine): void {
    const view = this.view;
    const at = this.at;
    view.setInt32(at, line.person);
    view.setInt32(at + 4, line.periodStart);
    view.setInt32(at + 8, line.periodEnd);
    view.setInt32(at + 12, line.yearUnits);
    view.setInt32(at + 16, line.arrangement);
    writeCents(view, at + 20, line.grossCents);
    writeCents(view, at + 28, line.employeeCents);
    writeCents(view, at + 36, line.employerCents);
    this.at = at + LINE_BYTES;
  }

  /** The written records, as they are (format 1); every line must have been added. */
  finish(): Buffer {
    if (this.at !== this.bytes.length) {
      throw new Error(`pay lines: ${this.at / LINE_BYTES} of ${this.count} lines written`);
    }
    return this.bytes;
  }

  /**
   * The written records deflated (format 2), as an upload stores them: on libuv's thread pool, so
   * an upload's other steps go on meanwhile on the main thread.
   */
  finishPacked(): Promise<Buffer> {
    return deflated(this.finish(), { level: 1 });
  }
}

function writeCents(view: DataView, at: number, cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new Error('pay lines: an amount out of range');
  const high = Math.floor(cents / HIGH);
  view.setUint32(at, high);
  view.setUint32(at + 4, cents - high * HIGH);
}

function readCents(view: DataView, at: number): number {
  const high = view.getInt32(at);
  const cents = high * HIGH + view.getUint32(at + 4);
  if (high < 0 || cents > MAX_CENTS) throw new Error('pay lines: a stored amount out of range');
  return cents;
}

/**
 * Calls `visit` with each line of a stored value, in stored order, after checking it: the person
 * and scheme are places the row names, the period is in order, the amounts are whole cents that
 * are not negative. With `endingWithin` (YYYYMMDD numbers, both included), only the lines whose
 * period ends within it are checked and visited. The same `PayLine` object is passed each time,
 * refilled: keep its fields, not it. Throws on the first line that breaks a rule, naming the
 * line's place only.
 */
export function readPayLines(
  stored: { format: number; lineCount: number; lines: Uint8Array },
  shape: { people: number; schemes: number },
  visit: (line: PayLine) => void,
  endingWithin?: { from: number; to: number },
): void {
  const size = stored.lineCount * LINE_BYTES;
  let value: Uint8Array;
  if (stored.format === RECORDS_FORMAT) value = stored.lines;
  else if (stored.format === PAY_LINES_FORMAT) {
    // Never more than the row's lines: a damaged value cannot inflate without bound.
    value = inflateRawSync(stored.lines, { maxOutputLength: Math.max(size, 1) });
  } else throw new Error('pay lines: a format not known');
  if (value.byteLength !== size) throw new Error('pay lines: a stored value of the wrong length');
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const line: PayLine = {
    person: 0,
    periodStart: 0,
    periodEnd: 0,
    yearUnits: 0,
    arrangement: 0,
    grossCents: 0,
    employeeCents: 0,
    employerCents: 0,
  };
  const from = endingWithin?.from ?? 0;
  const to = endingWithin?.to ?? Number.MAX_SAFE_INTEGER;
  for (let at = 0; at < value.byteLength; at += LINE_BYTES) {
    const periodEnd = view.getInt32(at + 8);
    // A line ending outside the window is not read further, nor visited.
    if (periodEnd < from || periodEnd > to) continue;
    line.person = view.getInt32(at);
    line.periodStart = view.getInt32(at + 4);
    line.periodEnd = periodEnd;
    line.yearUnits = view.getInt32(at + 12);
    line.arrangement = view.getInt32(at + 16);
    line.grossCents = readCents(view, at + 20);
    line.employeeCents = readCents(view, at + 28);
    line.employerCents = readCents(view, at + 36);
    if (
      line.person < 0 ||
      line.person >= shape.people ||
      !isDateNumber(line.periodStart) ||
      !isDateNumber(line.periodEnd) ||
      line.periodEnd < line.periodStart ||
      line.yearUnits <= 0 ||
      line.arrangement < NO_ARRANGEMENT ||
      line.arrangement >= shape.schemes
    ) {
      throw new Error(`pay lines: stored line ${at / LINE_BYTES} breaks the format`);
    }
    visit(line);
  }
}

/** A `YYYY-MM-DD` date as the number YYYYMMDD: ordered as the dates are, and held in 32 bits. */
export const dateNumber = (iso: string) =>
  Number(iso.slice(0, 4)) * 10_000 + Number(iso.slice(5, 7)) * 100 + Number(iso.slice(8, 10));

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/** The number YYYYMMDD as `YYYY-MM-DD`. */
export const isoOfDateNumber = (value: number) =>
  `${Math.floor(value / 10_000)}-${twoDigits(Math.floor(value / 100) % 100)}-${twoDigits(value % 100)}`;
