import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvRecord, readCsvUpload } from './csv-upload.js';
import { TEXT_FAULTS, UploadText } from './upload-text.js';

/** The text of `bytes` given in pieces of `size` bytes, and the first fault. */
function decoded(bytes: Buffer, size: number) {
  const text = new UploadText();
  let read = '';
  let fault: { at: number; message: string } | null = null;
  const note = (piece: string) => {
    if (fault === null && text.fault !== null)
      fault = { ...text.fault, at: read.length + text.fault.at };
    read += piece;
  };
  for (let at = 0; at < bytes.length; at += size) note(text.write(bytes.subarray(at, at + size)));
  note(text.end());
  return { read, fault };
}

async function uploaded(bytes: Buffer) {
  const upload = readCsvUpload(Readable.from([bytes]));
  const records: CsvRecord[] = [];
  await upload.each((record) => records.push(record));
  return { records, issue: upload.textIssue() };
}

describe('the text of an upload', () => {
  it('reads UTF-8 as UTF-8, however its characters are cut between pieces', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        (text, size) => {
          const { read, fault } = decoded(Buffer.from(text, 'utf8'), size);
          expect(fault).toBeNull();
          // Lone surrogates have no UTF-8 of their own; Buffer.from writes U+FFFD for them.
          expect(read).toBe(Buffer.from(text, 'utf8').toString('utf8'));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('reads a file Excel saved as Windows-1252 with its fadas and euro signs', () => {
    // "Seán,Ó Briain,€5" as Windows-1252 writes it.
    const bytes = Buffer.from([
      0x53, 0x65, 0xe1, 0x6e, 0x2c, 0xd3, 0x20, 0x42, 0x72, 0x69, 0x61, 0x69, 0x6e, 0x2c, 0x80,
      0x35,
    ]);
    for (const size of [1, 3, bytes.length]) {
      expect(decoded(bytes, size)).toEqual({ read: 'Seán,Ó Briain,€5', fault: null });
    }
  });

  it('finds the first byte that is not UTF-8 in a file that began as UTF-8, and reads on', () => {
    // Seán in UTF-8 decides the file; then an é as Windows-1252 writes it, and an overlong slash.
    const bytes = Buffer.concat([
      Buffer.from('Seán\nok\nCaf', 'utf8'),
      Buffer.from([0xe9]),
      Buffer.from('\nx', 'utf8'),
      Buffer.from([0xc0, 0xaf]),
    ]);
    for (const size of [1, 2, 5, bytes.length]) {
      const { read, fault } = decoded(bytes, size);
      expect(fault).toEqual({ at: 'Seán\nok\nCaf'.length, message: TEXT_FAULTS.notUtf8 });
      expect(read.startsWith('Seán\nok\nCaf\uFFFD\nx')).toBe(true);
    }
  });

  it('refuses a character cut short by the end of the file', () => {
    const bytes = Buffer.concat([Buffer.from('é\n', 'utf8'), Buffer.from([0xe2, 0x82])]);
    expect(decoded(bytes, 1).fault).toEqual({ at: 2, message: TEXT_FAULTS.notUtf8 });
  });

  it('names the line of the first byte that is not UTF-8, counting quoted line breaks', async () => {
    const bytes = Buffer.concat([
      Buffer.from('Name,Address\nSeán,"1 Main St\nGalway"\nOk,x\nCaf', 'utf8'),
      Buffer.from([0xe9]),
      Buffer.from(',y\n', 'utf8'),
    ]);
    const { issue } = await uploaded(bytes);
    expect(issue).toEqual({
      line: 5,
      column: null,
      code: 'not_utf8',
      message: `Line 5 ${TEXT_FAULTS.notUtf8}`,
    });
  });

  it('finds a UTF-16 byte-order mark that arrives a byte at a time', () => {
    const bytes = Buffer.from('\uFEFFName\n', 'utf16le');
    expect(decoded(bytes, 1).fault).toEqual({ at: 0, message: TEXT_FAULTS.utf16 });
  });

  it('refuses a UTF-16 file as such, in plain words', async () => {
    const { issue } = await uploaded(Buffer.from('\uFEFFName\nSeán\n', 'utf16le'));
    expect(issue).toEqual({ line: 1, column: null, code: 'not_utf8', message: TEXT_FAULTS.utf16 });
  });

  it('finds nothing wrong with a plain ASCII file or a UTF-8 one with its byte-order mark', async () => {
    expect((await uploaded(Buffer.from('a,b\n1,2\n'))).issue).toBeNull();
    const marked = await uploaded(Buffer.from('\uFEFFName\nSeán\n', 'utf8'));
    expect(marked.issue).toBeNull();
    expect(marked.records).toEqual([
      { line: 1, cells: ['Name'] },
      { line: 2, cells: ['Seán'] },
    ]);
  });
});
