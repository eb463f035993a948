import { describe, expect, it } from 'vitest';
import { CSV_FAULTS, tooManyCells } from '../../../contracts/csv';
import { PREVIEW_BYTES, previewCsv } from './csvPreview';

/**
 * The wizard's preview reads a chosen file as the service will (contracts/upload-encoding.ts): a
 * person sees the names the import will store, fadas and all, whichever way Excel saved them.
 */
/** Text of Latin-1 characters only, as Windows-1252 writes it: a byte each. */
const windows1252 = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));

describe('the preview of a chosen CSV file', () => {
  it('shows a Windows-1252 file’s fadas as the service will store them', async () => {
    const text = 'First Name,Surname\nSeán,Ó Briain\n';
    const preview = await previewCsv(new Blob([windows1252(text)]));
    expect(preview.headings).toEqual(['First Name', 'Surname']);
    expect(preview.rows).toEqual([{ line: 2, cells: ['Seán', 'Ó Briain'] }]);
  });

  it('shows a UTF-8 file with its byte-order mark as UTF-8', async () => {
    const preview = await previewCsv(
      new Blob([new TextEncoder().encode('\uFEFFFirst Name,Surname\nSiobhán,Ní Bhriain\n')]),
    );
    expect(preview.headings).toEqual(['First Name', 'Surname']);
    expect(preview.rows[0]?.cells).toEqual(['Siobhán', 'Ní Bhriain']);
  });

  it('shows the rows the service will refuse as CSV, by their lines and in its words', async () => {
    const text = [
      'PPSN,Name,Note',
      '1,Aoife,ok',
      '2,Aoife, "quoted after a space"',
      '3,Ao"ife,',
      '4,"Aoife" ,',
      '5,Ao\rife,',
      '7,"line\nbreak",fine',
      '9,Aoife,ok,extra',
      '10,"never closed',
    ].join('\n');
    const preview = await previewCsv(new Blob([text]));
    const malformed = (line: number, fault: string) => ({
      line,
      column: null,
      code: 'malformed_csv',
      message: `Line ${line} ${fault}`,
    });
    expect(preview.problems).toEqual([
      malformed(3, CSV_FAULTS.quoteInCell),
      malformed(4, CSV_FAULTS.quoteInCell),
      malformed(5, CSV_FAULTS.textAfterQuote),
      malformed(6, CSV_FAULTS.loneCr),
      {
        line: 9,
        column: 'column D',
        code: 'too_many_cells',
        message: tooManyCells(4, 3),
      },
      malformed(10, CSV_FAULTS.quoteNotClosed),
    ]);
    // A quoted line break makes a row two lines long; the next row starts two lines on.
    expect(preview.rows.map((row) => row.line)).toEqual([2, 7, 9]);
    expect(preview.partial).toBe(false);
  });

  it('says that a row has more cells than headings when an unquoted comma moved its values along, though the cell past the last heading is empty', async () => {
    const text = [
      'PPS Number,Gross Pay,Employee Pension,Arrangement',
      '1234567T,2600,50,',
      '1234568W,2,600,50,',
      '1234569A,"2,600",50,',
    ].join('\r\n');
    const preview = await previewCsv(new Blob([text]));
    expect(preview.problems).toEqual([
      {
        line: 3,
        column: 'column E',
        code: 'too_many_cells',
        message:
          'is beyond the last heading: this row has 5 cells but the file has 4 headings, so its values may have moved to the right. Put a value with a comma in it, such as 2,600, in quotes or write it without the comma, and remove any extra commas at the end of the line',
      },
    ]);
    expect(preview.rows.map((row) => row.cells.length)).toEqual([4, 5, 4]);
  });

  it('reads no rows under a heading row that is not CSV, as the service does', async () => {
    const preview = await previewCsv(new Blob(['PPSN,"Name"x\n1,"a"b\n2,c\n']));
    expect(preview.headings).toEqual([]);
    expect(preview.rows).toEqual([]);
    expect(preview.problems).toEqual([
      {
        line: 1,
        column: null,
        code: 'malformed_csv',
        message: `Line 1 ${CSV_FAULTS.textAfterQuote}`,
      },
    ]);
  });

  it('leaves the row cut off by the 64 KiB read unjudged, and says that only part of the file was checked', async () => {
    const row = '1234567T,Aoife\n';
    const rows = Math.floor((PREVIEW_BYTES - 'PPSN,Name\n'.length) / row.length);
    // The last row starts inside the 64 KiB and its closing quote lies beyond them.
    const text = `PPSN,Name\n${row.repeat(rows)}2,"${'x'.repeat(row.length)}"\n`;
    const preview = await previewCsv(new Blob([text]));
    expect(preview.partial).toBe(true);
    expect(preview.more).toBe(true);
    expect(preview.problems).toEqual([]);
    expect(preview.rows).toHaveLength(10);
  });
});
