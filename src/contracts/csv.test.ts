import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_FAULTS, CsvReader, type CsvRecord } from './csv.js';

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

  it('skips a byte-order mark, and keeps a lone CR inside a cell as text', () => {
    expect(read(['\uFEFFa,b\r', '\n1,x\ry\r\n"2","\r"\r', '\n'])).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', 'x\ry'] },
      { line: 3, cells: ['2', '\r'] },
    ]);
  });

  it('reports a broken row at its own line, reads on from the next line break, and names what is wrong', () => {
    const text = 'a,b\n1,"x"y\n2,ab"c\n3,"x" \n4,ok\n5,"never closed\n6,z\n';
    expect(read(cut(text, 3))).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, malformed: CSV_FAULTS.textAfterQuote },
      { line: 3, malformed: CSV_FAULTS.quoteInCell },
      { line: 4, malformed: CSV_FAULTS.textAfterQuote },
      { line: 5, cells: ['4', 'ok'] },
      { line: 6, malformed: CSV_FAULTS.quoteNotClosed },
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
});
