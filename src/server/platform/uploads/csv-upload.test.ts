import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CsvRecord, readCsvUpload, UploadTooLargeError } from './csv-upload.js';

async function recordsOf(text: string | string[], maxBytes?: number): Promise<CsvRecord[]> {
  const upload = readCsvUpload(Readable.from(Array.isArray(text) ? text : [text]), maxBytes);
  const records: CsvRecord[] = [];
  await upload.each((record) => records.push(record));
  return records;
}

describe('reading an upload as CSV', () => {
  it('numbers rows by the line they start on, skipping blank lines and counting quoted line breaks', async () => {
    const records = await recordsOf(
      '\uFEFFPPSN,Address\n1234567T,"1 Main St\nGalway"\n\n,\n  \n7654321A,"Flat 2, ""The Mews"""\r\n',
    );
    expect(records).toEqual([
      { line: 1, cells: ['PPSN', 'Address'] },
      { line: 2, cells: ['1234567T', '1 Main St\nGalway'] },
      { line: 7, cells: ['7654321A', 'Flat 2, "The Mews"'] },
    ]);
  });

  it('reports a line that is not valid CSV in its place and reads on', async () => {
    const records = await recordsOf('a,b\n1,2\n3,"x"y\n5,6\n');
    expect(records[0]).toEqual({ line: 1, cells: ['a', 'b'] });
    expect(records[1]).toEqual({ line: 2, cells: ['1', '2'] });
    expect(records[2]).toMatchObject({ line: 3, malformed: expect.stringContaining('quote') });
  });

  it('refuses an unclosed quote without swallowing the file into one cell', async () => {
    const records = await recordsOf(`a,b\n1,"${'x'.repeat(70_000)}\n`);
    expect(records.at(-1)).toMatchObject({ line: 2, malformed: expect.any(String) });
  });

  it('reports a row too long to read once, at its own line, however many pieces of it arrive', async () => {
    // As an upload arrives: in 64 KiB pieces, each of them still inside the long row.
    const text = `a,b\n1,${'A'.repeat(200_000)}\n3,x\n4,y\n`;
    const pieces = Array.from({ length: Math.ceil(text.length / 65_536) }, (_, index) =>
      text.slice(index * 65_536, (index + 1) * 65_536),
    );
    const malformed = (await recordsOf(pieces)).filter((record) => 'malformed' in record);
    expect(malformed).toEqual([{ line: 2, malformed: 'is too long to be a row' }]);
  });

  it('counts broken lines past the first 10,000 without holding them', async () => {
    const upload = readCsvUpload(Readable.from([`a,b\n${'1,"x"y\n'.repeat(30_000)}`]));
    let yielded = 0;
    await upload.each((record) => {
      if ('malformed' in record) yielded += 1;
    });
    expect(yielded).toBe(10_000);
    expect(upload.malformedNotYielded()).toBe(20_000);
  });

  it('hashes exactly the bytes received, however they are split', async () => {
    const text = 'a,b\n1,2\n3,4\n';
    const whole = readCsvUpload(Readable.from([text]));
    await whole.each(() => undefined);
    const pieces = readCsvUpload(Readable.from(['a,', 'b\n1', ',2\n3,4', '\n']));
    await pieces.each(() => undefined);
    expect(pieces.sha256()).toBe(whole.sha256());
    expect(whole.bytes()).toBe(Buffer.byteLength(text));
  });

  it('stops at the byte limit', async () => {
    await expect(recordsOf(['a,b\n', '1,2\n'.repeat(100)], 100)).rejects.toBeInstanceOf(
      UploadTooLargeError,
    );
  });

  it('reads a character whose bytes are split between two pieces of the upload', async () => {
    const bytes = Buffer.from('name\nSeán\n€5\n');
    const pieces = [bytes.subarray(0, 8), bytes.subarray(8, 13), bytes.subarray(13)];
    const upload = readCsvUpload(Readable.from(pieces));
    const records: CsvRecord[] = [];
    await upload.each((record) => records.push(record));
    expect(records).toEqual([
      { line: 1, cells: ['name'] },
      { line: 2, cells: ['Seán'] },
      { line: 3, cells: ['€5'] },
    ]);
  });
});
