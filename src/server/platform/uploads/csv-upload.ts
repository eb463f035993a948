import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { z } from 'zod';
import { CsvReader, type CsvRecord, MAX_ROW_CHARACTERS } from '../../../contracts/csv.js';
import { fileSizeInWords } from '../../../contracts/file-size.js';
/** Uploads up to 25 MiB (docs/api.md, "Requests and answers"). */
import { type ImportIssue, MAX_IMPORT_BYTES } from '../../../contracts/imports.js';
import { textFaultMessage, UploadText } from './upload-text.js';

export type { CsvRecord };

export const MAX_UPLOAD_BYTES = MAX_IMPORT_BYTES;

/** The refusal of a file over the limit, the limit written as the pages write it. */
export const TOO_LARGE_MESSAGE = `The file is over ${fileSizeInWords(MAX_UPLOAD_BYTES)}`;

/**
 * Broken rows listed; beyond this many they are only counted. A file of nothing but broken lines
 * must not fill memory, and the import lists no more issues than this anyway (IssueList).
 */
const MAX_LISTED_MALFORMED = 10_000;

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

/**
 * Reads an upload as CSV while it arrives (the shared reader, contracts/csv.ts): hashes and counts its bytes, refuses it
 * past `maxBytes`, and hands over its rows, with the line each starts on, one at a time as each is
 * read. Rows that are entirely blank are skipped. The upload is piped, never handed to `pipeline`:
 * a failure here must not destroy the request, whose socket still carries the answer.
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

  let take: (record: CsvRecord) => void = () => {
    throw new Error('a row read before it could be taken');
  };
  let malformedListed = 0;
  let malformedNotYielded = 0;
  const reader = new CsvReader(MAX_ROW_CHARACTERS, (record) => {
    if ('malformed' in record) {
      if (malformedListed >= MAX_LISTED_MALFORMED) {
        malformedNotYielded += 1;
        return;
      }
      malformedListed += 1;
    }
    take(record);
  });
  // UTF-8 or Windows-1252, told apart by the first byte outside ASCII (upload-text.ts).
  const decoder = new UploadText();
  let textIssue: ImportIssue | null = null;
  const read = (text: string) => {
    const fault = decoder.fault;
    if (fault !== null && textIssue === null) {
      let line = reader.lineAt;
      for (
        let at = text.indexOf('\n');
        at !== -1 && at < fault.at;
        at = text.indexOf('\n', at + 1)
      ) {
        line += 1;
      }
      textIssue = {
        line,
        column: null,
        code: 'not_utf8',
        message: textFaultMessage(fault, line),
      };
    }
    reader.push(text);
  };

  const fail = (error: Error) => meter.destroy(error);
  const closed = () => {
    if (!upload.readableEnded) fail(new UploadAbortedError());
  };
  upload.on('error', fail);
  upload.on('close', closed);
  upload.pipe(meter);

  /**
   * Reads the upload to its end, handing each row to `onRecord` as soon as it is read: a row is
   * checked and let go while it is still young in the heap, where gathering a piece's rows first
   * kept every row alive across collections (docs/decisions/0074-reading-a-payroll-upload-faster.md). `onRecord`
   * runs synchronously; what must wait (a spool file's write) waits in `afterPiece`, awaited after
   * each piece of the upload.
   */
  async function each(
    onRecord: (record: CsvRecord) => void,
    afterPiece: () => Promise<void> | void = () => undefined,
  ): Promise<void> {
    take = onRecord;
    try {
      for await (const piece of meter) {
        read(decoder.write(piece as Buffer));
        await afterPiece();
      }
      read(decoder.end());
      reader.end();
      await afterPiece();
    } finally {
      upload.off('error', fail);
      upload.off('close', closed);
      upload.unpipe(meter);
    }
  }

  return {
    each,
    /** Bytes received so far. */
    bytes: () => bytes,
    /** Broken rows that were counted but never handed over (MAX_LISTED_MALFORMED). */
    malformedNotYielded: () => malformedNotYielded,
    /** Bytes that are not text in the file's encoding, where the first stands; after the last record. */
    textIssue: () => textIssue,
    /** The SHA-256 of the whole upload, hex; call once, after the last record. */
    sha256: () => hash.digest('hex'),
  };
}

/**
 * The request body: CSV text, handed to the handler as the stream it arrives as (the route's own
 * content-type parser), so a file is never held in memory whole. The JSON description tells the
 * API reference what to send.
 */
export const csvBody = z.instanceof(Readable).meta({
  description:
    'CSV, UTF-8, comma-separated, headings on the first line (docs/imports.md); at most 25 MiB.',
  type: 'string',
});
