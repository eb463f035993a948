/**
 * CSV as RFC 4180 writes it and spreadsheets export it, read as text arrives in pieces (docs/imports.md,
 * "The file"): cells split by commas, rows by LF or CRLF, a quoted cell may hold commas, line
 * breaks and doubled quotes. Each row is numbered by the line it starts on. Outside quotes a CR
 * must be the first half of a CRLF: RFC 4180 allows no other there, and a file whose lines end in
 * a CR alone (old Mac line ends) would otherwise read as one long row.
 *
 * The one CSV reader of the project (docs/decisions/0102-one-csv-reader.md): the service reads
 * every upload with it (server/modules/imports/csv-upload.ts feeds it the upload's text) and the
 * web's import preview reads a chosen file's first bytes with it, so the preview finds in a file
 * what the service will. Plain string work only, nothing of Node's, so the browser bundle takes it.
 *
 * Written here rather than taken from a library because of what a broken file must do: a broken
 * row is reported at its own line and reading goes on from the next line break, and a row longer
 * than the limit ends at the first line break past it, however the upload is split into pieces
 * (csv-parse, used before, lost every row after a row too long). It also reads a year's payroll in
 * a fraction of the time (docs/decisions/0074-reading-a-payroll-upload-faster.md).
 */

import type { ImportIssue } from './imports.js';
import { counted } from './plain-english.js';

/**
 * A longer row is refused as malformed: an unclosed quote must not swallow the whole file. The
 * service reads every upload with this limit, and so does the preview.
 */
export const MAX_ROW_CHARACTERS = 64 * 1024;

/** A row of the file, by the line it starts on. */
export type CsvRecord =
  | { line: number; cells: string[] }
  /** A row that is not valid CSV; its cells are lost. */
  | { line: number; malformed: string };

export const CSV_FAULTS = {
  quoteNotClosed: 'is not valid CSV: a quoted cell is never closed',
  textAfterQuote: 'is not valid CSV: a quote inside a quoted cell must be doubled ("")',
  quoteInCell:
    'is not valid CSV: a cell with a quote in it must be quoted whole, its quotes doubled ("")',
  loneCr:
    'is not valid CSV: a carriage return (CR) must be followed by a line feed (LF) unless it is inside a quoted cell',
  tooLong: 'is too long to be a row',
} as const;

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Where the reader is within a row. */
enum At {
  /** At the start of a cell: a quote here opens a quoted cell. */
  CellStart,
  Unquoted,
  /** A CR in an unquoted cell, the piece having ended after it: only LF may follow. */
  UnquotedCr,
  Quoted,
  /** A quote inside a quoted cell: the next character says whether it closes the cell. */
  QuoteInQuoted,
  /** After a quoted cell's closing quote: only a comma or a line break may follow. */
  Closed,
  /** A CR after a closing quote: only LF may follow. */
  ClosedCr,
  /** The row is broken: everything up to the next line break is skipped. */
  Skipping,
}

/** A row of empty or blank cells, as a blank line is: skipped. */
function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
}

export class CsvReader {
  private at = At.CellStart;
  private cells: string[] = [];
  /** The current cell's text read from earlier pieces (and, in a quoted cell, before a `""`). */
  private pending = '';
  /** The line at the reading position, and the line the current row started on. */
  private line = 1;
  private rowLine = 1;
  /** Characters of the current row in earlier pieces. */
  private rowCharacters = 0;
  private fault: string | null = null;
  private started = false;

  constructor(
    private readonly maxRowCharacters: number,
    private readonly emit: (record: CsvRecord) => void,
  ) {}

  /** The line the next character read is on. */
  get lineAt(): number {
    return this.line;
  }

  /** Reads one piece of the text; the rows it completes are emitted. */
  push(text: string): void {
    let from = 0;
    // An upload's first piece may hold less than the mark's three bytes, which decode to nothing.
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) from = 1;
    }
    let at = this.at;
    let cellStart = from;
    let rowStart = from;
    const length = text.length;
    for (let index = from; index < length; index += 1) {
      let code = text.charCodeAt(index);
      if (at === At.CellStart) {
        if (code === QUOTE) {
          at = At.Quoted;
          cellStart = index + 1;
          continue;
        }
        // Any other first character is read as the rest of an unquoted cell is.
        cellStart = index;
        at = At.Unquoted;
      }
      if (at === At.Unquoted) {
        // Most of a file is plain cell text: run on to the next comma, quote or line break.
        while (code !== COMMA && code !== LF && code !== QUOTE && code !== CR) {
          index += 1;
          if (index === length) break;
          code = text.charCodeAt(index);
        }
        if (index === length) break;
        if (code === COMMA) {
          this.cells.push(this.pending + text.slice(cellStart, index));
          this.pending = '';
          at = At.CellStart;
        } else if (code === LF || code === CR) {
          this.pending += text.slice(cellStart, index);
          if (code === CR) {
            if (index + 1 === length) {
              // The next piece says whether the CR begins a CRLF.
              at = At.UnquotedCr;
              continue;
            }
            if (text.charCodeAt(index + 1) !== LF) {
              // Found at the character after the CR, as when the CR ends a piece.
              at = this.skip(CSV_FAULTS.loneCr, this.rowCharacters + index + 1 - rowStart);
              continue;
            }
            index += 1;
          }
          this.cells.push(this.pending);
          this.pending = '';
          this.endRow(this.rowCharacters + index - rowStart);
          rowStart = index + 1;
          at = At.CellStart;
        } else if (code === QUOTE) {
          at = this.skip(CSV_FAULTS.quoteInCell, this.rowCharacters + index - rowStart);
        }
        continue;
      }
      if (at === At.UnquotedCr) {
        if (code === LF) {
          this.cells.push(this.pending);
          this.pending = '';
          this.endRow(this.rowCharacters + index - rowStart);
          rowStart = index + 1;
          at = At.CellStart;
        } else at = this.skip(CSV_FAULTS.loneCr, this.rowCharacters + index - rowStart);
        continue;
      }
      if (at === At.Quoted) {
        if (code === QUOTE) {
          this.pending += text.slice(cellStart, index);
          at = At.QuoteInQuoted;
        } else if (code === LF) {
          if (this.rowCharacters + index - rowStart > this.maxRowCharacters) {
            // The row ends at this line break: what follows is read as new rows.
            this.fault = CSV_FAULTS.tooLong;
            this.endRow(0);
            rowStart = index + 1;
            at = At.CellStart;
          } else this.line += 1;
        }
        continue;
      }
      if (at === At.QuoteInQuoted) {
        if (code === QUOTE) {
          // A doubled quote stands for one quote; the cell goes on after it.
          this.pending += '"';
          cellStart = index + 1;
          at = At.Quoted;
          continue;
        }
        // The quote closed the cell; this character is read as any after a quoted cell.
        this.cells.push(this.pending);
        this.pending = '';
        at = At.Closed;
      }
      if (at === At.Closed) {
        if (code === COMMA) at = At.CellStart;
        else if (code === LF) {
          this.endRow(this.rowCharacters + index - rowStart);
          rowStart = index + 1;
          at = At.CellStart;
        } else if (code === CR) at = At.ClosedCr;
        else at = this.skip(CSV_FAULTS.textAfterQuote, this.rowCharacters + index - rowStart);
        continue;
      }
      if (at === At.ClosedCr) {
        if (code === LF) {
          this.endRow(this.rowCharacters + index - rowStart);
          rowStart = index + 1;
          at = At.CellStart;
        } else at = this.skip(CSV_FAULTS.loneCr, this.rowCharacters + index - rowStart);
        continue;
      }
      // Skipping a broken row.
      if (code === LF) {
        this.endRow(0);
        rowStart = index + 1;
        at = At.CellStart;
      }
    }
    // The piece ends inside a row: keep the current cell's text for the next piece.
    if (at === At.Unquoted || at === At.Quoted) this.pending += text.slice(cellStart, length);
    this.rowCharacters += length - rowStart;
    if (at !== At.Skipping && this.rowCharacters > this.maxRowCharacters && !this.atRowStart(at)) {
      at = this.skip(CSV_FAULTS.tooLong, this.rowCharacters);
    }
    this.at = at;
  }

  /** The end of the text: the last row, if it had no line break after it. */
  end(): void {
    const at = this.at;
    if (at === At.Quoted) this.fault ??= CSV_FAULTS.quoteNotClosed;
    // A CR that ends the text ends its last row, as a CRLF would.
    if (at === At.QuoteInQuoted || at === At.Quoted || at === At.Unquoted || at === At.UnquotedCr) {
      this.cells.push(this.pending);
    }
    if (this.atRowStart(at) && this.cells.length === 0 && this.fault === null) return;
    if (at === At.CellStart && this.cells.length > 0) this.cells.push('');
    this.endRow(this.rowCharacters);
    this.at = At.CellStart;
  }

  /** True before the first character of a row. */
  private atRowStart(at: At): boolean {
    return at === At.CellStart && this.cells.length === 0 && this.pending === '';
  }

  /**
   * Breaks the current row with `fault`, found after `before` characters of it. A row already
   * past the limit there is too long, whatever comes after: where the text is cut into pieces
   * must not change which fault a row is reported with.
   */
  private skip(fault: string, before: number): At {
    this.fault ??= before > this.maxRowCharacters ? CSV_FAULTS.tooLong : fault;
    this.cells = [];
    this.pending = '';
    return At.Skipping;
  }

  /** Ends the current row at a line break (or the end of the text) and starts the next. */
  private endRow(characters: number): void {
    const line = this.rowLine;
    if (this.fault === null && characters > this.maxRowCharacters) this.fault = CSV_FAULTS.tooLong;
    if (this.fault !== null) this.emit({ line, malformed: this.fault });
    else if (!isBlank(this.cells)) this.emit({ line, cells: this.cells });
    this.cells = [];
    this.pending = '';
    this.fault = null;
    this.rowCharacters = 0;
    this.line += 1;
    this.rowLine = this.line;
  }
}

/** How the service reports a row that is not valid CSV (docs/imports.md, "Issues"). */
export function csvFaultIssue(record: { line: number; malformed: string }): ImportIssue {
  return {
    line: record.line,
    column: null,
    code: 'malformed_csv',
    message: `Line ${record.line} ${record.malformed}`,
  };
}

/** `column A` for the first column, `column AA` for the 27th: how a spreadsheet names it. */
export function spreadsheetColumn(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return `column ${name}`;
}

/** The code of a row with more cells than the heading row has headings. */
export const TOO_MANY_CELLS = 'too_many_cells';

/**
 * True of the issue `rowShape` gives a row with more cells than headings. Its values may sit
 * under the wrong headings (docs/decisions/0102-one-csv-reader.md, "Later"), so an import says
 * this of the row instead of what its cells, read by heading, would be refused for.
 */
export function isTooWide(issue: ImportIssue): boolean {
  return issue.code === TOO_MANY_CELLS;
}

/**
 * The check of a row's shape against the heading row's `headings`: a row with more cells than
 * headings (reported once a row, empty extra cells too), and each value under a heading left
 * empty. A row shorter than the headings is fine: its missing cells are empty ones, as a
 * spreadsheet leaves them.
 *
 * A wider row is refused even when its extra cells are empty (docs/decisions/0102-one-csv-reader.md,
 * "Later"): an unquoted `2,600` in a row whose last cell is empty moves every value after it one
 * column right and leaves only an empty cell beyond the last heading. The column named is the
 * first value beyond the last heading, or the first cell there when all are empty.
 */
export function rowShape(
  headings: readonly string[],
): (cells: readonly string[], line: number) => ImportIssue[] {
  const width = headings.length;
  const unnamed: number[] = [];
  headings.forEach((heading, index) => {
    if (heading.trim() === '') unnamed.push(index);
  });
  return (cells, line) => {
    const issues: ImportIssue[] = [];
    if (cells.length > width) {
      let at = width;
      while (at < cells.length && (cells[at] ?? '').trim() === '') at += 1;
      issues.push({
        line,
        column: spreadsheetColumn(at < cells.length ? at : width),
        code: TOO_MANY_CELLS,
        message: tooManyCells(cells.length, width),
      });
    }
    for (const index of unnamed) {
      if ((cells[index] ?? '').trim() !== '') {
        issues.push({
          line,
          column: spreadsheetColumn(index),
          code: 'unnamed_column',
          message: 'has a value under an empty heading',
        });
      }
    }
    return issues;
  };
}

/** What is said of a row with `cells` cells under `width` headings. */
export function tooManyCells(cells: number, width: number): string {
  return (
    `is beyond the last heading: this row has ${counted(cells, 'cell')} but the file has ` +
    `${counted(width, 'heading')}, so its values may have moved to the right. Put a value with ` +
    'a comma in it, such as 2,600, in quotes or write it without the comma, and remove any ' +
    'extra commas at the end of the line'
  );
}

/*
 * Writing: CSV for people to open in a spreadsheet (a member's own data, the audit log, the
 * assessment, an import's template), which the reader above reads back cell for cell.
 */

/**
 * The first characters that make a spreadsheet evaluate a cell (OWASP, "CSV injection"): a
 * name, a user agent or an `X-Forwarded-For` value is anyone's to choose.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * One cell: a leading formula character neutralised with a quote, then quoted where RFC 4180
 * needs it (a comma, a quote, a CR or an LF in it), its quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.has(value.charAt(0)) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One row, ended by CRLF as RFC 4180 ends it. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** UTF-8's byte-order mark, so that spreadsheet programs read names such as "Ní Bhriain" right. */
export const BYTE_ORDER_MARK = '\uFEFF';

/** A whole document, rows of cells, with the byte-order mark first. */
export function csvDocument(rows: readonly (readonly string[])[]): string {
  return BYTE_ORDER_MARK + rows.map(csvLine).join('');
}
