import { rowShape, spreadsheetColumn } from '../../../contracts/csv.js';
import { type ColumnAliases, headingKey, type ImportIssue } from '../../../contracts/imports.js';

export { headingKey };

/** Where each field's column is in a file, and its heading as the file writes it. */
export interface Columns<F extends string> {
  has(field: F): boolean;
  /** The field's cell in a row, trimmed; empty when the file has no such column. */
  cell(cells: readonly string[], field: F): string;
  /** The heading of the field's column in this file, or its usual name when there is none. */
  heading(field: F): string;
  /**
   * Issues with a row's shape: cells beyond the headings, or under a heading left empty; the
   * check the web's preview makes too (contracts/csv.ts).
   */
  strayCells(cells: readonly string[], line: number): ImportIssue[];
}

/**
 * A heading we do not know may be no heading at all: a file without its heading row starts with
 * a member's data. Only text that looks like a heading (letters, spaces and a little punctuation,
 * no digits, no `@`) is repeated back; anything else is named by its position.
 */
function nameOfUnknown(text: string, index: number): string {
  // Length first: a heading cell may be 64 KiB, and no pattern runs on more than it can accept.
  return text.length <= 60 && /^[\p{L}][\p{L} ._()&'/-]{0,59}$/u.test(text)
    ? text
    : spreadsheetColumn(index);
}

const cut = (text: string) => text.slice(0, 100);

/**
 * No heading anyone writes is longer; a longer cell is an unknown column without being read, so
 * that a 64 KiB cell in the heading row costs nothing.
 */
const MAX_HEADING = 100;

export function readHeadings<F extends string>(
  cells: readonly string[],
  line: number,
  aliases: ColumnAliases<F>,
): { columns: Columns<F>; issues: ImportIssue[] } {
  const fieldOfKey = new Map<string, F>();
  for (const field of Object.keys(aliases) as F[]) {
    for (const alias of aliases[field]) fieldOfKey.set(headingKey(alias), field);
  }
  const known = (Object.values(aliases) as string[][]).map((names) => names[0]).join(', ');
  const position = new Map<F, number>();
  const headings = new Map<F, string>();
  const issues: ImportIssue[] = [];
  cells.forEach((raw, index) => {
    const text = raw.trim();
    if (text === '') return;
    const field = text.length <= MAX_HEADING ? fieldOfKey.get(headingKey(text)) : undefined;
    if (field === undefined) {
      issues.push({
        line,
        column: nameOfUnknown(text, index),
        code: 'unknown_column',
        message: `is not a column this import reads; the columns are: ${known}`,
      });
    } else if (position.has(field)) {
      issues.push({
        line,
        column: cut(text),
        code: 'duplicate_column',
        message: `names the same column as ${headings.get(field)}`,
      });
    } else {
      position.set(field, index);
      headings.set(field, cut(text));
    }
  });
  return {
    issues,
    columns: {
      has: (field) => position.has(field),
      cell(row, field) {
        const index = position.get(field);
        return index === undefined ? '' : (row[index] ?? '').trim();
      },
      heading: (field) => headings.get(field) ?? aliases[field][0],
      strayCells: rowShape(cells),
    },
  };
}

/** A required column the heading row lacks. */
export function missingColumn(line: number, name: string, alternatives: string): ImportIssue {
  return {
    line,
    column: name,
    code: 'missing_column',
    message: `is a required column and the heading row lacks it (accepted headings: ${alternatives})`,
  };
}
