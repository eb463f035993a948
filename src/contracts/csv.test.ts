import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectPlainEnglish } from '../../test/helpers/plain-english.js';
import {
  CSV_FAULTS,
  CsvReader,
  type CsvRecord,
  csvCell,
  csvDocument,
  csvFaultIssue,
  isTooWide,
  rowShape,
  tooManyCells,
} from './csv.js';

const LIMIT = 64 * 1024;

/** The records of `pieces` read one after another, as an upload's pieces arrive. */
function read(pieces: readonly string[], limit = LIMIT): CsvRecord[] {
  const records: CsvRecord[] = [];
  const reader = new CsvReader(limit, (record) => records.push(record));
  for (const piece of pieces) reader.push(piece);
  reader.end();
  return records;
}

/** `text` cut into pieces of `size` characters. */
const cut = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, index) =>
    text.slice(index * size, (index + 1) * size),
  );

/** A cell as a spreadsheet writes it: quoted when it must be, its quotes doubled. */
const written = (cell: string, quoteAnyway: boolean) =>
  quoteAnyway || /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;

describe('reading CSV as it arrives', () => {
  it('reads any well-formed file to its rows and their lines, however it is cut into pieces', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'Z', '1', ' ', ',', '"', '\n', '\r', 'é', '€', '\t'),
      maxLength: 8,
    });
    const row = fc.array(fc.tuple(cell, fc.boolean()), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(row, fc.boolean()), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (rows, size, finalBreak) => {
          let text = '';
          let line = 1;
          const expected: CsvRecord[] = [];
          rows.forEach(([cells, crlf], index) => {
            const values = cells.map(([value]) => value);
            if (!values.every((value) => value.trim() === ''))
              expected.push({ line, cells: values });
            const rowText = cells.map(([value, quoted]) => written(value, quoted)).join(',');
            const last = index === rows.length - 1;
            const lineBreak = last && !finalBreak ? '' : crlf ? '\r\n' : '\n';
            text += rowText + lineBreak;
            line += (rowText.match(/\n/g)?.length ?? 0) + 1;
          });
          // A last row of one empty cell and no line break is no row at all, as a blank line.
          expect(read(cut(text, size))).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('skips a byte-order mark, keeps a CR inside a quoted cell as text, and takes a CR at the very end as the last line break', () => {
    for (const size of [1, 2, 3, 100]) {
      expect(
        read(cut('\uFEFFa,b\r\n1,x\r\n"2","\r"\r\n3,"y"\r', size)),
        `pieces of ${size}`,
      ).toEqual([
        { line: 1, cells: ['a', 'b'] },
        { line: 2, cells: ['1', 'x'] },
        { line: 3, cells: ['2', '\r'] },
        { line: 4, cells: ['3', 'y'] },
      ]);
    }
  });

  it('refuses a CR outside quotes that is not followed by LF, at the line its row starts on, and reads on from the next LF', () => {
    // RFC 4180 allows a CR outside quotes only as the first half of a CRLF line break.
    const text = 'a,b\r\n1,x\ry\r\n2,"ok"\r3\n4,\r\r\n5,z\rend\n"6","mac\rline"\n7,w\r';
    for (const size of [1, 2, 5, text.length]) {
      expect(read(cut(text, size)), `pieces of ${size}`).toEqual([
        { line: 1, cells: ['a', 'b'] },
        { line: 2, malformed: CSV_FAULTS.loneCr },
        { line: 3, malformed: CSV_FAULTS.loneCr },
        { line: 4, malformed: CSV_FAULTS.loneCr },
        { line: 5, malformed: CSV_FAULTS.loneCr },
        { line: 6, cells: ['6', 'mac\rline'] },
        { line: 7, cells: ['7', 'w'] },
      ]);
    }
    // A file saved with old Mac line ends, a CR alone after each line, is refused at its first.
    expect(read(['PPSN,Name\r1234567T,Aoife\r'])).toEqual([
      { line: 1, malformed: CSV_FAULTS.loneCr },
    ]);
  });

  it('reports a broken row at its own line, reads on from the next line break, and names what is wrong', () => {
    // RFC 4180: a field is quoted whole or not at all, and spaces are part of a field, so a quote
    // after a space is a quote inside an unquoted cell.
    const text = 'a,b\n1,"x"y\n2,ab"c\n3,"x" \n4,ok\n5, "b"\n6,"never closed\n7,z\n';
    expect(read(cut(text, 3))).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, malformed: CSV_FAULTS.textAfterQuote },
      { line: 3, malformed: CSV_FAULTS.quoteInCell },
      { line: 4, malformed: CSV_FAULTS.textAfterQuote },
      { line: 5, cells: ['4', 'ok'] },
      { line: 6, malformed: CSV_FAULTS.quoteInCell },
      { line: 7, malformed: CSV_FAULTS.quoteNotClosed },
    ]);
  });

  it('ends a row too long at the first line break past the limit and reads every row after it, in pieces of any size', () => {
    const long = `a,b\n1,${'A'.repeat(200)}\n3,x\n4,"${'q\n'.repeat(150)}q"\n305,y\n306,z`;
    for (const size of [7, 64, 100, long.length]) {
      expect(read(cut(long, size), 100), `pieces of ${size}`).toEqual([
        { line: 1, cells: ['a', 'b'] },
        { line: 2, malformed: CSV_FAULTS.tooLong },
        { line: 3, cells: ['3', 'x'] },
        // The quoted cell passes the limit on line 53; the rest of it is read as rows, up to its
        // closing quote, which breaks the row it is on.
        { line: 4, malformed: CSV_FAULTS.tooLong },
        ...Array.from({ length: 100 }, (_, index) => ({ line: 54 + index, cells: ['q'] })),
        { line: 154, malformed: CSV_FAULTS.quoteInCell },
        { line: 155, cells: ['305', 'y'] },
        { line: 156, cells: ['306', 'z'] },
      ]);
    }
  });

  it('skips a byte-order mark that comes after pieces of nothing', () => {
    // A first piece of the upload shorter than the mark's three bytes decodes to no text at all.
    expect(read(['', '\uFEFFname\nSeán\n'])).toEqual([
      { line: 1, cells: ['name'] },
      { line: 2, cells: ['Seán'] },
    ]);
  });

  it('finds the same rows and faults in any text, however it is cut into pieces', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r', '\uFEFF'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(
        text,
        fc.array(fc.nat(40)),
        fc.integer({ min: 4, max: 50 }),
        (whole, at, limit) => {
          const cuts = [...new Set(at.filter((place) => place < whole.length))].sort(
            (a, b) => a - b,
          );
          const pieces = [0, ...cuts].map((from, index) =>
            whole.slice(from, cuts[index] ?? undefined),
          );
          expect(read(pieces, limit)).toEqual(read([whole], limit));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads in time linear in the text: files built to make a reader backtrack take no longer than plain ones', () => {
    // A million characters each: a reader quadratic in any of them would take hours, a linear one
    // takes a fraction of a second, so the bound leaves room for a busy machine.
    const size = 1024 * 1024;
    const texts = {
      doubledQuotes: `"${'""'.repeat(size / 2)}"`,
      loneCrs: '\r'.repeat(size),
      commas: ','.repeat(size),
      lineFeeds: '\n'.repeat(size),
      quotesInCells: 'a"'.repeat(size / 2),
      quotedCells: '"a",'.repeat(size / 4),
      unclosed: `"${'a\n'.repeat(size / 2)}`,
    };
    for (const [name, text] of Object.entries(texts)) {
      const started = performance.now();
      read(cut(text, 64 * 1024), size + 2);
      expect(performance.now() - started, name).toBeLessThan(5_000);
    }
    // One character a piece: the cost of a piece is fixed too.
    const started = performance.now();
    read(cut('"a""b",c\r\n'.repeat(30_000), 1), size);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('the shape of a row under its headings', () => {
  const shape = rowShape(['PPSN', ' ', 'Surname']);

  it('accepts a row as wide as the headings, or shorter, its missing cells being empty', () => {
    expect(shape(['1234567T', '', 'Murphy'], 2)).toEqual([]);
    expect(shape(['1234567T'], 3)).toEqual([]);
    // A heading row ending in a comma, as every row of the file does, is as wide as its rows.
    expect(rowShape(['PPSN', 'Surname', ''])(['1234567T', 'Murphy', ''], 2)).toEqual([]);
  });

  it('refuses a row wider than the headings though its extra cells are empty: a value with an unquoted comma moved the rest along', () => {
    // `Gross Pay` written 2,600 without quotes, the row's last cell empty.
    const payroll = rowShape(['PPSN', 'Gross Pay', 'Employee', 'Arrangement']);
    const issues = payroll(['1234567T', '2', '600', '50', ''], 4);
    expect(issues).toEqual([
      {
        line: 4,
        column: 'column E',
        code: 'too_many_cells',
        message:
          'is beyond the last heading: this row has 5 cells but the file has 4 headings, so its values may have moved to the right. Put a value with a comma in it, such as 2,600, in quotes or write it without the comma, and remove any extra commas at the end of the line',
      },
    ]);
    expect(issues.every(isTooWide)).toBe(true);
    expectPlainEnglish(`Column E ${issues[0]?.message}`);
    // Blank cells at the end of a row wider than the headings are refused as well.
    expect(shape(['1234567T', '', 'Murphy', '', '  '], 5)[0]).toMatchObject({
      column: 'column D',
      code: 'too_many_cells',
    });
    expect(rowShape(['PPSN'])(['1', ''], 2)[0]?.message).toContain(
      '2 cells but the file has 1 heading,',
    );
  });

  it('names the first value beyond the last heading, and each value under an empty heading, by spreadsheet column', () => {
    expect(shape(['1234567T', 'x', 'Murphy', '', 'y', 'z'], 5)).toEqual([
      {
        line: 5,
        column: 'column E',
        code: 'too_many_cells',
        message: tooManyCells(6, 3),
      },
      {
        line: 5,
        column: 'column B',
        code: 'unnamed_column',
        message: 'has a value under an empty heading',
      },
    ]);
    expect(shape(['1234567T', 'x', 'Murphy'], 6).some(isTooWide)).toBe(false);
    const wide = rowShape(Array.from({ length: 27 }, () => 'h'));
    expect(wide([...Array.from({ length: 27 }, () => ''), 'x'], 2)[0]?.column).toBe('column AB');
  });

  it('reports a broken row by its line, in words that never quote a cell', () => {
    expect(csvFaultIssue({ line: 7, malformed: CSV_FAULTS.quoteInCell })).toEqual({
      line: 7,
      column: null,
      code: 'malformed_csv',
      message: `Line 7 ${CSV_FAULTS.quoteInCell}`,
    });
  });
});

describe('writing CSV', () => {
  it('writes every document so that the reader reads back its cells, a formula guarded by a leading quote', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'é', ' ', ',', '"', '\n', '\r', '=', '+', '-', '@', '\t'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 6 }),
        (rows) => {
          const guarded = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
          const expected: CsvRecord[] = [];
          let line = 1;
          for (const cells of rows) {
            const back = cells.map(guarded);
            // A row of blank cells reads as a blank line does: as no row.
            if (!back.every((value) => value.trim() === '')) expected.push({ line, cells: back });
            line += cells.join('').split('\n').length;
          }
          expect(read([csvDocument(rows)])).toEqual(expected);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('quotes a cell only when RFC 4180 needs it', () => {
    expect(csvCell('Ní Bhriain')).toBe('Ní Bhriain');
    expect(csvCell('Flat 2, "The Mews"')).toBe('"Flat 2, ""The Mews"""');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });
});
