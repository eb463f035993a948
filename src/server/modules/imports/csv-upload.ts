import { createHash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type CsvError, type Options, parse } from 'csv-parse';

/** decisions.md §2: uploads up to 25 MiB. */
import { MAX_IMPORT_BYTES } from '../../../contracts/imports.js';

export const MAX_UPLOAD_BYTES = MAX_IMPORT_BYTES;

/** A longer line is refused as malformed: an unclosed quote must not swallow the whole file. */
const MAX_RECORD_CHARACTERS = 64 * 1024;
/**
 * Broken lines waiting for their turn; beyond this many they are only counted. The parser finds
 * them without producing rows, so nothing else holds it back: a file of nothing but broken
 * lines must not fill memory.
 */
const MAX_PENDING_MALFORMED = 10_000;

interface RowCells {
  line: number;
  cells: string[];
}

/** A row of the file, by the line it starts on (a quoted cell may span lines). */
export type CsvRecord =
  | RowCells
  /** A line that is not valid CSV; its cells are lost. */
  | { line: number; malformed: string };

export class UploadTooLargeError extends Error {
  override name = 'UploadTooLargeError';
  constructor() {
    super('upload larger than the limit');
  }
}

export class UploadAbortedError extends Error {
  override name = 'UploadAbortedError';
  constructor() {
    super('the client stopped sending the upload');
  }
}

const MALFORMED_MESSAGES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'is not valid CSV: a quoted cell is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'is not valid CSV: a quote inside a quoted cell must be doubled ("")',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'is not valid CSV: a quote inside a quoted cell must be doubled ("")',
  CSV_MAX_RECORD_SIZE: 'is too long to be a row',
};

/**
 * Reads an upload as CSV while it arrives: hashes and counts its bytes, refuses it past
 * `maxBytes`, and yields its rows, with the line each starts on, in batches: the rows of each
 * piece of the upload as it arrives. Rows that are entirely blank are skipped. The upload is
 * piped, never handed to `pipeline`: a failure here must not destroy the request, whose socket
 * still carries the answer.
 *
 * Each piece is written to the parser, which reads it at once and hands each row to `on_record`,
 * where it is kept; the parser passes nothing on. Reading a large file a row at a time through
 * the parser's stream cost several promises a row, about a fifth of everything the payroll
 * upload allocated (docs/decisions.md, "Payroll upload speed").
 */
export function readCsvUpload(upload: Readable, maxBytes = MAX_UPLOAD_BYTES) {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(new UploadTooLargeError());
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });

  // csv-parse reports where a row ends; where it starts follows from where the one before ended.
  let lastLine = 0;
  let rows: RowCells[] = [];
  const malformed: Array<{ line: number; malformed: string }> = [];
  let malformedNotYielded = 0;
  const options: Options<RowCells, string[]> = {
    bom: true,
    // Spreadsheets end lines with CRLF, other tools with LF; files pasted together mix them.
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_CHARACTERS,
    on_record: (cells, context) => {
      const line = lastLine + 1;
      lastLine = context.lines;
      if (!cells.every((cell) => cell.trim() === '')) rows.push({ line, cells });
      return null;
    },
    on_skip: (error: CsvError | undefined) => {
      const endsAt = (error as { lines?: number } | undefined)?.lines;
      // A row too long to read is refused again for every further piece of it that arrives,
      // each time with the line it is on: that line has been reported already.
      if (error?.code === 'CSV_MAX_RECORD_SIZE' && endsAt !== undefined && endsAt <= lastLine) {
        return undefined;
      }
      const line = lastLine + 1;
      lastLine = Math.max(line, endsAt ?? line);
      if (malformed.length >= MAX_PENDING_MALFORMED) {
        malformedNotYielded += 1;
        return undefined;
      }
      malformed.push({
        line,
        malformed: MALFORMED_MESSAGES[error?.code ?? ''] ?? 'is not valid CSV',
      });
      return undefined;
    },
  };
  // The typings know only string[] records; on_record keeps RowCells of its own instead.
  const parser = parse(options as unknown as Options);
  let parserFailure: Error | undefined;
  parser.on('error', (error: Error) => {
    parserFailure = error;
  });

  const fail = (error: Error) => meter.destroy(error);
  const closed = () => {
    if (!upload.readableEnded) fail(new UploadAbortedError());
  };
  upload.on('error', fail);
  upload.on('close', closed);
  upload.pipe(meter);

  /** The rows read so far, each broken line placed before the first row after it. */
  function taken(): CsvRecord[] {
    if (parserFailure) throw parserFailure;
    const read = rows;
    rows = [];
    if (malformed.length === 0) return read;
    const batch: CsvRecord[] = [];
    for (const row of read) {
      while (malformed.length > 0 && (malformed[0] as { line: number }).line < row.line) {
        batch.push(malformed.shift() as CsvRecord);
      }
      batch.push(row);
    }
    return batch;
  }

  async function* batches(): AsyncGenerator<CsvRecord[]> {
    try {
      for await (const piece of meter) {
        parser.write(piece);
        const batch = taken();
        if (batch.length > 0) yield batch;
      }
      if (parserFailure) throw parserFailure;
      parser.end();
      // Settles also for a parser that failed or closed already.
      await finished(parser, { readable: false });
      const batch = taken();
      batch.push(...malformed.splice(0));
      if (batch.length > 0) yield batch;
    } finally {
      upload.off('error', fail);
      upload.off('close', closed);
      upload.unpipe(meter);
    }
  }

  return {
    batches,
    /** Bytes received so far. */
    bytes: () => bytes,
    /** Broken lines that were counted but never yielded (MAX_PENDING_MALFORMED). */
    malformedNotYielded: () => malformedNotYielded,
    /** The SHA-256 of the whole upload, hex; call once, after the last record. */
    sha256: () => hash.digest('hex'),
  };
}
