import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportIssue } from '../../src/contracts/imports.js';
import { previewCsv } from '../../src/web/pages/imports/csvPreview.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { schemeFixture } from '../helpers/fixtures.js';
import {
  csvCell,
  leakedPpsNumbers,
  MEMBER_HEADINGS,
  type MemberCsvRow,
  memberRow,
  upload,
} from '../helpers/imports.js';

/**
 * The browser's preview of a chosen file and the service's import read it with one CSV reader
 * (docs/decisions/0102-one-csv-reader.md): for the same bytes the preview shows exactly the
 * problems the service answers with, the same codes, lines and words, and a file the preview
 * finds clean is not refused as CSV.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date('2026-11-04T09:00:00Z') });
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

/** A member row's cells, in the order of the headings, written as a spreadsheet writes them. */
const cellsOf = (row: MemberCsvRow) => MEMBER_HEADINGS.map((heading) => csvCell(row[heading]));
const headingLine = MEMBER_HEADINGS.join(',');
const goodLine = () => cellsOf(memberRow()).join(',');
/** A row's cells with the one at `heading` written as `text`, exactly. */
const withCell = (heading: (typeof MEMBER_HEADINGS)[number], text: string) => {
  const cells = cellsOf(memberRow());
  cells[MEMBER_HEADINGS.indexOf(heading)] = text;
  return cells.join(',');
};

interface Case {
  name: string;
  /** The file, given fresh member rows each time it is asked for. */
  file: () => string;
  /** The codes both must report, in line order; none for a file both read clean. */
  codes: string[];
}

const CASES: Case[] = [
  {
    name: 'a quote after a space',
    file: () =>
      `${headingLine}\n${goodLine()}\n${withCell('Address', ' "1 Main Street, Galway"')}\n${goodLine()}\n`,
    codes: ['malformed_csv'],
  },
  {
    name: 'a stray quote inside an unquoted cell',
    file: () => `${headingLine}\n${withCell('First Name', 'Ao"ife')}\n${goodLine()}\n`,
    codes: ['malformed_csv'],
  },
  {
    name: 'text after a closing quote',
    file: () => `${headingLine}\n${goodLine()}\n${withCell('Surname', '"Murphy" ')}\n`,
    codes: ['malformed_csv'],
  },
  {
    name: 'a lone CR inside an unquoted cell',
    file: () => `${headingLine}\r\n${goodLine()}\r\n${withCell('Surname', 'Mur\rphy')}\r\n`,
    codes: ['malformed_csv'],
  },
  {
    name: 'old Mac line ends, a CR alone after each line',
    file: () => `${headingLine}\r${goodLine()}\r${goodLine()}\r`,
    codes: ['malformed_csv'],
  },
  {
    name: 'an unterminated quote in the last row',
    file: () => `${headingLine}\n${goodLine()}\n${withCell('Address', '"1 Main Street')}\n`,
    codes: ['malformed_csv'],
  },
  {
    name: 'a quoted line break, the rows after it numbered by their own lines',
    file: () =>
      `${headingLine}\n${withCell('Address', '"1 Main Street\nGalway"')}\n${goodLine()}\n${withCell('First Name', 'Ao"ife')}\n`,
    codes: ['malformed_csv'],
  },
  {
    name: 'a ragged row with a value beyond the last heading, and one ending in commas the heading row lacks',
    file: () => `${headingLine}\n${goodLine()}\n${goodLine()},extra\n${goodLine()},,\n`,
    codes: ['too_many_cells', 'too_many_cells'],
  },
  {
    name: 'a comma in an unquoted address, moving the rest of the row right',
    file: () => `${headingLine}\n${goodLine()}\n${withCell('Address', '1 Main Street, Galway')}\n`,
    codes: ['too_many_cells'],
  },
  {
    name: 'every row, the heading row too, ending in the same extra comma',
    file: () => `${headingLine},\n${goodLine()},\n${goodLine()},\n`,
    codes: [],
  },
  {
    name: 'a short row, its missing optional cell empty',
    file: () => {
      const cells = cellsOf(memberRow());
      return `${headingLine}\n${cells.slice(0, -1).join(',')}\n`;
    },
    codes: [],
  },
  {
    name: 'a byte-order mark and CRLF line ends',
    file: () => `\uFEFF${headingLine}\r\n${goodLine()}\r\n${goodLine()}\r\n`,
    codes: [],
  },
  {
    name: 'a broken heading row',
    file: () => `${headingLine.replace('Surname', 'Sur"name')}\n${goodLine()}\n`,
    codes: ['malformed_csv'],
  },
];

/** The issues the service answers with, of the kinds the preview can see in a file. */
const CSV_CODES = new Set(['malformed_csv', 'too_many_cells', 'unnamed_column']);

describe('the preview of a chosen file and the import of it', () => {
  it.each(CASES)('report the same CSV problems for $name', async ({ file, codes }) => {
    const bytes = Buffer.from(file(), 'utf8');
    const preview = await previewCsv(new Blob([bytes]));

    const { schemeId, admin } = await schemeFixture(t.database, {
      users: { admin: 'BrokerAdmin' },
    });
    const answer = await upload(
      t,
      admin,
      `/api/schemes/${schemeId}/members/import`,
      Readable.from([bytes]),
    );
    const issues: ImportIssue[] = answer.statusCode === 201 ? [] : answer.json().issues;
    expect(issues.map((issue) => issue.code)).toEqual(codes);
    expect(answer.statusCode).toBe(codes.length === 0 ? 201 : 400);
    // Headings the import does not know are the preview table's to mark (importFormats.ts).
    expect(preview.problems).toEqual(issues.filter((issue) => CSV_CODES.has(issue.code)));
    expect(preview.partial).toBe(false);
  });

  it('reports a value under an empty heading alike once the headings are known', async () => {
    const cells = cellsOf(memberRow());
    // An empty heading between two known ones, and a value under it on line 3.
    const headings = [...MEMBER_HEADINGS.slice(0, 2), '', ...MEMBER_HEADINGS.slice(2)];
    const row = (values: string[], under: string) =>
      [...values.slice(0, 2), under, ...values.slice(2)].join(',');
    const text = `${headings.join(',')}\n${row(cellsOf(memberRow()), '')}\n${row(cells, 'x')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const preview = await previewCsv(new Blob([bytes]));
    const { schemeId, admin } = await schemeFixture(t.database, {
      users: { admin: 'BrokerAdmin' },
    });
    const answer = await upload(
      t,
      admin,
      `/api/schemes/${schemeId}/members/import`,
      Readable.from([bytes]),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().issues).toEqual([
      {
        line: 3,
        column: 'column C',
        code: 'unnamed_column',
        message: 'has a value under an empty heading',
      },
    ]);
    expect(preview.problems).toEqual(answer.json().issues);
  });
});
