import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * The web reads CSV with the service's own reader and writes it with its writer
 * (src/contracts/csv.ts, docs/decisions/0102-one-csv-reader.md), so that its preview of a file
 * finds what the service will. These checks keep a second reader or writer from growing back in
 * src/web: splitting text at commas or line breaks, comparing characters with a quote, joining
 * cells with commas, or reading a chosen file's bytes anywhere but the preview.
 */

const web = path.resolve(import.meta.dirname, '../../src/web');

/** Every source file of the web UI, its tests left out, by its path under src/web. */
const sources = () => sourceFiles('src/web');

/**
 * `.split(…)` at a comma or a line break: a string literal or a regular expression holding a
 * comma, `\n` or `\r` as the first argument.
 */
const SPLIT_AT_CELLS_OR_LINES =
  /\.split\(\s*(?:(['"`])[^'"`]*?(?:,|\\n|\\r)[^'"`]*?\1|\/[^/\n]*?(?:,|\\n|\\r)[^/\n]*?\/)/;
/** A character compared with a double quote, as a CSV tokenizer does. */
const QUOTE_COMPARED = /[!=]==?\s*(?:'"'|"\\""|`"`|34\b)|(?:'"'|"\\""|`"`)\s*[!=]==?/;
/** Cells joined into a line of CSV by hand. */
const JOINED_WITH_COMMAS = /\.join\(\s*(['"`]),\1\s*\)/;
/**
 * Reading a chosen file's bytes or text: code that handles a Blob or a File (a fetch answer's
 * `.text()` is no file) and reads one, or a FileReader.
 */
const READS_A_FILE = {
  test: (text: string) =>
    /\bFileReader\b/.test(text) ||
    (/\b(?:Blob|File)\b/.test(text) && /\.(?:arrayBuffer|text|stream)\(\)/.test(text)),
};

/**
 * Lines split for reasons that have nothing to do with files: `ai-text.ts` lays out the lines of
 * a paragraph of an answer the assistant wrote.
 */
const SPLITS_THAT_ARE_NOT_CSV = ['pages/ai/ai-text.ts'];

describe('CSV in the web UI', () => {
  it('the scanner finds the kinds of code a hand-written CSV reader is made of', () => {
    expect(SPLIT_AT_CELLS_OR_LINES.test("const cells = line.split(',');")).toBe(true);
    expect(SPLIT_AT_CELLS_OR_LINES.test('text.split("\\n").map(parse)')).toBe(true);
    expect(SPLIT_AT_CELLS_OR_LINES.test('text.split(/\\r?\\n/)')).toBe(true);
    expect(SPLIT_AT_CELLS_OR_LINES.test("isoDate.split('-')")).toBe(false);
    expect(QUOTE_COMPARED.test(`if (char === '"' && text[index + 1] === '"') {`)).toBe(true);
    expect(QUOTE_COMPARED.test('if (text.charCodeAt(index) === 34) {')).toBe(true);
    expect(JOINED_WITH_COMMAS.test("new Blob([headings.join(',') + '\\r\\n'])")).toBe(true);
    expect(JOINED_WITH_COMMAS.test("headings.join(', ')")).toBe(false);
    expect(READS_A_FILE.test('(file: File) => file.slice(0, 65536).text()')).toBe(true);
    expect(READS_A_FILE.test('new FileReader().readAsText(chosen)')).toBe(true);
    expect(READS_A_FILE.test('const text = await response.text();')).toBe(false);
  });

  it('splits no text at commas or line breaks, compares no character with a quote and joins no cells with commas', () => {
    const found = sources()
      .filter(
        ({ file, text }) =>
          QUOTE_COMPARED.test(text) ||
          JOINED_WITH_COMMAS.test(text) ||
          (!SPLITS_THAT_ARE_NOT_CSV.includes(file) && SPLIT_AT_CELLS_OR_LINES.test(text)),
      )
      .map(({ file }) => file);
    expect(found).toEqual([]);
  });

  it('reads a chosen file only in the preview, and the preview reads it with the shared reader', () => {
    const reading = sources()
      .filter(({ text }) => READS_A_FILE.test(text))
      .map(({ file }) => file);
    expect(reading).toEqual(['pages/imports/csvPreview.ts']);
    const preview = readFileSync(path.join(web, 'pages/imports/csvPreview.ts'), 'utf8');
    expect(preview).toMatch(/from '\.\.\/\.\.\/\.\.\/contracts\/csv\.js'/);
    expect(preview).toMatch(/new CsvReader\(/);
  });
});
