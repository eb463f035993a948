/**
 * CSV for people to open in a spreadsheet (the member's own data, the audit log): RFC 4180
 * quoting with CRLF line ends, UTF-8 with a byte-order mark so that spreadsheet programs read
 * names such as "Ní Bhriain" correctly, and safe to open: a cell that a spreadsheet would take
 * for a formula is written as text.
 */

/**
 * The first characters that make a spreadsheet evaluate a cell (OWASP, "CSV injection"): a
 * name, a user agent or an `X-Forwarded-For` value is anyone's to choose.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** One cell: a leading formula character neutralised with a quote, then quoted where RFC 4180 needs it. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.has(value.charAt(0)) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const BYTE_ORDER_MARK = '\uFEFF';

/** A whole document, rows of cells, with the byte-order mark first. */
export function csvDocument(rows: readonly (readonly string[])[]): string {
  return BYTE_ORDER_MARK + rows.map(csvLine).join('');
}
