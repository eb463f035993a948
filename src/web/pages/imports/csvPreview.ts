import { encodingDecidedAt, firstNonAscii } from '../../../contracts/upload-encoding';

/** How much of a chosen file the browser reads for the preview: the file itself may be 25 MiB. */
export const PREVIEW_BYTES = 64 * 1024;

export interface CsvRow {
  /** The line the row starts on, as the service counts lines (the heading row is line 1). */
  line: number;
  cells: string[];
}

export interface CsvPreview {
  headings: string[];
  /** The first data rows, up to the number asked for. */
  rows: CsvRow[];
  /** True when the rows shown are not all the file has (or may have). */
  more: boolean;
}

/**
 * The heading row and first rows of a CSV file, from its first 64 KiB only. Read as the service
 * reads it: UTF-8 or Windows-1252 by the same rule (contracts/upload-encoding.ts), an optional
 * byte-order mark, commas, double quotes around cells that hold commas, quotes ("" inside) or
 * line breaks, and entirely blank lines skipped.
 */
export async function previewCsv(file: Blob, rowCount = 10): Promise<CsvPreview> {
  const cut = file.size > PREVIEW_BYTES;
  const bytes = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
  const at = firstNonAscii(bytes);
  // All ASCII, or a first character cut off by the 64 KiB: the service's usual answer, UTF-8.
  const encoding = (at < bytes.length && encodingDecidedAt(bytes, at)) || 'utf-8';
  const text = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
  const { records, lastComplete } = parseRecords(text, rowCount + 2);
  // The last record of a cut-off slice may itself be cut off: it is left out.
  const usable = cut && !lastComplete ? records.slice(0, -1) : records;
  const [heading, ...rows] = usable;
  return {
    headings: heading?.cells ?? [],
    rows: rows.slice(0, rowCount),
    more: rows.length > rowCount || cut,
  };
}

/** Up to `limit` records; `lastComplete` says whether the last one ended with a line break. */
function parseRecords(text: string, limit: number): { records: CsvRow[]; lastComplete: boolean } {
  const records: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let index = 0;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    cells.push(cell);
    // A blank line is no row, as the service skips it.
    if (!(cells.length === 1 && cells[0]?.trim() === '')) {
      records.push({ line: recordLine, cells });
    }
    cells = [];
    cell = '';
  };
  while (index < text.length && records.length < limit) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
      if (char === '\n') line += 1;
      index += 1;
      continue;
    }
    if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      endRecord();
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      line += 1;
      recordLine = line;
    } else {
      cell += char;
    }
    index += 1;
  }
  if (records.length >= limit) return { records, lastComplete: true };
  // Text after the last line break: a whole last row of a file read to its end, or a fragment.
  if (cell !== '' || cells.length > 0) {
    endRecord();
    return { records, lastComplete: false };
  }
  return { records, lastComplete: true };
}
