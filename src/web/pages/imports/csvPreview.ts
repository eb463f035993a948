import { CsvReader, csvFaultIssue, MAX_ROW_CHARACTERS, rowShape } from '../../../contracts/csv.js';
import type { ImportIssue } from '../../../contracts/imports.js';
import { encodingDecidedAt, firstNonAscii } from '../../../contracts/upload-encoding.js';

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
  /**
   * What the service will refuse in the rows read, in its own words and by the same lines: rows
   * that are not valid CSV, rows with more cells than headings, values under an empty heading.
   */
  problems: ImportIssue[];
  /** True when only the file's first 64 KiB were read, so its other rows are not checked. */
  partial: boolean;
}

/**
 * A file's bytes as text, by the service's rule (contracts/upload-encoding.ts). `partial`: the
 * bytes are the start of a longer file.
 */
async function textOf(bytes: Blob, partial: boolean): Promise<string> {
  const read = new Uint8Array(await bytes.arrayBuffer());
  const at = firstNonAscii(read);
  // All ASCII, or a first character cut off by the 64 KiB: the service's usual answer, UTF-8.
  const encoding = (at < read.length && encodingDecidedAt(read, at)) || 'utf-8';
  // The byte-order mark stays in the text for the reader to skip, as the service's does; a
  // character cut off at the end of a part is held back rather than read as U+FFFD.
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(read, { stream: partial });
}

/** A whole file's text as the service decodes it: for an upload small enough to read whole. */
export function wholeTextOf(file: Blob): Promise<string> {
  return textOf(file, false);
}

/**
 * The heading row, first rows and CSV problems of a file, from its first 64 KiB only, read by
 * the service's own reader (contracts/csv.ts, docs/decisions/0102-one-csv-reader.md): UTF-8 or
 * Windows-1252 by the same rule (contracts/upload-encoding.ts), the same byte-order mark, quotes,
 * line breaks and blank lines, and the same faults at the same lines. The headings themselves are
 * checked against the import's columns by the preview's table (importFormats.ts).
 */
export async function previewCsv(file: Blob, rowCount = 10): Promise<CsvPreview> {
  const partial = file.size > PREVIEW_BYTES;
  const text = await textOf(file.slice(0, PREVIEW_BYTES), partial);

  const preview: CsvPreview = { headings: [], rows: [], more: partial, problems: [], partial };
  let headingRead = false;
  let shape: ReturnType<typeof rowShape> | null = null;
  const reader = new CsvReader(MAX_ROW_CHARACTERS, (record) => {
    if (!headingRead) {
      headingRead = true;
      if ('malformed' in record) preview.problems.push(csvFaultIssue(record));
      else {
        preview.headings = record.cells;
        shape = rowShape(record.cells);
      }
      return;
    }
    // The service reads no row under a heading row that is not CSV, and nor does the preview.
    if (shape === null) return;
    if ('malformed' in record) {
      preview.problems.push(csvFaultIssue(record));
      return;
    }
    preview.problems.push(...shape(record.cells, record.line));
    if (preview.rows.length < rowCount) preview.rows.push(record);
    else preview.more = true;
  });
  reader.push(text);
  // A file read whole ends its last row, line break or not; a file cut off at 64 KiB may cut its
  // last row off too, so that row is left unread rather than judged by its first half.
  if (!partial) reader.end();
  return preview;
}
