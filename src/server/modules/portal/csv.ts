/**
 * CSV for people to open in a spreadsheet: RFC 4180 quoting, CRLF line ends, and any cell a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return)
 * prefixed with a single quote, so a name like "=HYPERLINK(…)" is shown, never run (OWASP CSV
 * injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvDocument(rows: string[][]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
