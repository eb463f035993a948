import type { Readable } from 'node:stream';
import { csvFaultIssue } from '../../../contracts/csv.js';
import { TooLargeError } from '../errors.js';
import { type CsvRecord, readCsvUpload } from './csv-upload.js';
import type { IssueList } from './import-issues.js';
import type { RowReader } from './import-kind.js';
import type { SpoolFile } from './spool-file.js';

/**
 * Reading an uploaded CSV file row by row, the first phase of an import and of a payroll upload
 * (docs/imports.md): each row checked by the kind's reader, the accepted ones spooled, progress
 * written as it goes.
 */

/** How often, in rows, a running import records how far it got. */
const PROGRESS_EVERY_ROWS = 5_000;

/** The upload is larger than an upload may be. */
export class PayloadTooLargeError extends TooLargeError {}

/** What phase 1 learnt about the file. */
export interface FileRead {
  /** The heading row had no issue. */
  headerAccepted: boolean;
  rowsRead: number;
  fileBytes: number;
  fileSha256: string;
}

/**
 * Progress writes of one upload: each in a short transaction of its own, at most one at a time,
 * while the reading goes on; one offered while another is still being written is left out, the
 * next carries later figures. Reading waited for each before: 26 a quarter of weekly payroll, a
 * tenth of its time (docs/decisions/0075-pay-lines-one-row-per-upload.md).
 */
class ProgressWrites {
  private pending: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;

  constructor(private readonly write: (rowsRead: number, fileBytes: number) => Promise<void>) {}

  offer(rowsRead: number, fileBytes: number): void {
    if (this.failure) throw this.failure.error;
    if (this.pending) return;
    this.pending = this.write(rowsRead, fileBytes).then(
      () => {
        this.pending = null;
      },
      (error: unknown) => {
        this.pending = null;
        this.failure = { error };
      },
    );
  }

  /** Waits for the write in flight; throws what a write threw. */
  async done(): Promise<void> {
    await this.pending;
    if (this.failure) throw this.failure.error;
  }

  /** Waits for the write in flight, whatever it answers: the reading failed already. */
  async idle(): Promise<void> {
    await this.pending;
  }
}

/**
 * Phase 1: the upload as it arrives, one row at a time: each checked, each accepted one appended
 * to the spool file (`null` for a reader that keeps its accepted rows itself). No transaction is
 * open meanwhile (PGlite has a single connection, and a slow client must not hold one); progress
 * is written every few thousand rows in a short one, without waiting for it (`ProgressWrites`),
 * and the last is written before this answers, so that what settles the upload comes after it.
 */
export async function readUpload(
  upload: Readable,
  reader: RowReader,
  spool: SpoolFile | null,
  issues: IssueList,
  progress: (rowsRead: number, fileBytes: number) => Promise<void>,
): Promise<FileRead> {
  const writes = new ProgressWrites(progress);
  try {
    const read = await readRows(upload, reader, spool, issues, writes);
    await writes.done();
    return read;
  } catch (error) {
    await writes.idle();
    throw error;
  }
}

async function readRows(
  upload: Readable,
  reader: RowReader,
  spool: SpoolFile | null,
  issues: IssueList,
  writes: ProgressWrites,
): Promise<FileRead> {
  const csv = readCsvUpload(upload);
  let headerAccepted: boolean | null = null;
  /** The heading row could be read as cells, so the rows can be read by its columns. */
  let headingsRead = false;
  let rowsRead = 0;
  let spoolFull = false;
  const onRecord = (record: CsvRecord) => {
    if (headerAccepted === null) {
      headingsRead = 'cells' in record;
      const found =
        'cells' in record ? reader.readHeader(record.cells, record.line) : [csvFaultIssue(record)];
      issues.addAll(found);
      headerAccepted = found.length === 0;
      return;
    }
    // Every problem at once (docs/imports.md): a file whose headings have issues still has each
    // row checked by the columns it does name, so that the answer lists the headings' issues and
    // the rows' together. A heading row that is not even CSV names no column: its file is read to
    // its end, so the answer goes back on a connection still in step, but its rows mean nothing.
    if (!headingsRead) return;
    rowsRead += 1;
    if ('malformed' in record) {
      issues.add(csvFaultIssue(record));
    } else {
      const staged = reader.readRow(record.cells, record.line);
      if (Array.isArray(staged)) issues.addAll(staged);
      else if (staged !== null) {
        if (spool === null) throw new Error('a row to spool and no spool file to take it');
        if (spool.append(staged)) spoolFull = true;
      }
    }
    if (rowsRead % PROGRESS_EVERY_ROWS === 0) writes.offer(rowsRead, csv.bytes());
  };
  await csv.each(onRecord, async () => {
    if (spoolFull && spool !== null) {
      spoolFull = false;
      await spool.flush();
    }
  });
  const textIssue = csv.textIssue();
  if (textIssue !== null) issues.add(textIssue);
  const brokenLines = csv.malformedNotYielded();
  if (headingsRead && brokenLines > 0) {
    rowsRead += brokenLines;
    issues.addFound([], brokenLines);
  }
  if (headerAccepted === null) {
    issues.add({
      line: 1,
      column: null,
      code: 'empty_file',
      message: 'The file is empty: its first line must name the columns',
    });
  } else if (headingsRead && rowsRead === 0) {
    issues.add({
      line: null,
      column: null,
      code: 'no_rows',
      message: 'The file has headings but no rows',
    });
  }
  await spool?.finish();
  return {
    headerAccepted: headerAccepted === true,
    rowsRead,
    fileBytes: csv.bytes(),
    fileSha256: csv.sha256(),
  };
}
