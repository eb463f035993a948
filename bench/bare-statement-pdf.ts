import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { dateInWords } from '../src/contracts/irish-dates.js';
import { formatCents } from '../src/contracts/money.js';
import { SCHEME_TYPE_NAMES } from '../src/contracts/organisation.js';
import { sourcesInWords } from '../src/contracts/rule-sources.js';
import {
  PROJECTION_CAVEAT,
  STATEMENT_RULES,
  SUPPLEMENTARY_INFORMATION,
} from '../src/contracts/statement-rules.js';
import { sfntFromWoff } from '../src/server/platform/pdf/woff.js';

/**
 * The baseline of the statements benchmark (bench/statements.ts): a DC member's Pension Benefit
 * Statement as a bare pdfkit script writes it, with the same words, the same two Noto Sans fonts
 * from the same files (read once, as a script would) and the same page count as the service's
 * (statement.pdf.ts), but no structure tags, no database and no service around it. Renders the
 * number of statements given, each for a different member, and prints one line of JSON: the
 * statements a second, the pages of the first and the process's peak RSS.
 */
const count = Number(process.argv[2] ?? 1000);
const require = createRequire(import.meta.url);
const fonts = path.join(
  path.dirname(require.resolve('@fontsource/noto-sans/package.json')),
  'files',
);
// As TrueType: pdfkit (fontkit) inflates a WOFF file's tables again on every glyph it reads.
const regular = sfntFromWoff(readFileSync(path.join(fonts, 'noto-sans-latin-400-normal.woff')));
const bold = sfntFromWoff(readFileSync(path.join(fonts, 'noto-sans-latin-700-normal.woff')));

const informationDate = '2025-12-31';

function render(n: number): Promise<Buffer> {
  const doc = new PDFDocument({ pdfVersion: '1.7', size: 'A4', margin: 56 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) =>
    doc.on('end', () => resolve(Buffer.concat(chunks))),
  );
  doc.registerFont('Body', regular);
  doc.registerFont('Heading', bold);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const heading = (text: string, size: number) => {
    doc.moveDown(size === 18 ? 0 : 1);
    doc.font('Heading').fontSize(size).text(text);
    doc.moveDown(0.4);
  };
  const paragraph = (text: string) => {
    doc.font('Body').fontSize(10).text(text);
    doc.moveDown(0.4);
  };
  const table = (rows: Array<[string, string]>) => {
    for (const [label, value] of rows) {
      const y = doc.y;
      doc
        .font('Body')
        .fontSize(10)
        .text(label, left, y, { width: width * 0.62 });
      doc
        .font('Heading')
        .text(value, left + width * 0.62, y, { width: width * 0.38, align: 'right' });
      doc.x = left;
      doc.moveDown(0.25);
    }
    doc.moveDown(0.4);
  };
  const scheme = 'Acme Staff Pension Scheme';
  const fund = 1_000_000 + n * 37;
  const title = `Pension Benefit Statement: ${scheme}`;
  heading(title, 18);
  doc
    .font('Heading')
    .fontSize(14)
    .text(`Your benefits at ${dateInWords(informationDate)}`);
  doc.moveDown(0.6);
  heading('About you and your scheme', 13);
  table([
    ['Name', `Member Number ${n}`],
    ['Date of birth', dateInWords('1980-03-14')],
    ['Membership', 'Active member'],
    ['Retirement age used', '65'],
    ['You reach it on', dateInWords('2045-03-14')],
    ['Scheme', scheme],
    ['Type', SCHEME_TYPE_NAMES.DC],
  ]);
  paragraph(
    'Shannon Pensions administers the scheme. To ask about this statement, or to have it on paper, contact Shannon Pensions and give your name and the scheme’s name.',
  );
  heading('Your fund', 13);
  table([
    [`Global Equity: ${(fund / 125).toFixed(6)} units at €1.250000`, formatCents(fund)],
    [`Fund value at ${dateInWords(informationDate)}`, formatCents(fund)],
  ]);
  heading(
    `Paid in and charged from ${dateInWords('2025-01-01')} to ${dateInWords(informationDate)}`,
    13,
  );
  table([
    ['Your contributions', formatCents(120_000 + n)],
    ['Your employer’s contributions', formatCents(120_000 + n)],
    ['Costs deducted', formatCents(0)],
  ]);
  heading('What your pension may be at 65, in today’s money', 13);
  table([
    ['Best estimate: fund', formatCents(fund * 4)],
    ['Best estimate: pension a year', formatCents(fund / 6)],
    ['Unfavourable: fund', formatCents(fund * 3)],
    ['Unfavourable: pension a year', formatCents(fund / 8)],
  ]);
  paragraph(PROJECTION_CAVEAT);
  paragraph(
    `Assumptions (Pensions Authority guidance, version 1): a return of 4.75% a year (best estimate) or 1.5% (unfavourable), inflation of 2.5%, salaries growing by 2.5%, yearly charges of 0.75%, contributions of ${formatCents(240_000 + 2 * n)} a year, over 20 years, and €25 buying €1 a year of pension. Source: The Pensions Authority’s guidance on benefit statement projections.`,
  );
  heading('Where to find more', 13);
  paragraph('Ask the administrator for any of these, free of charge:');
  doc
    .font('Body')
    .fontSize(10)
    .list([...SUPPLEMENTARY_INFORMATION], { paragraphGap: 3 });
  doc.x = left;
  doc.moveDown(0.4);
  paragraph(
    `This statement is given under ${sourcesInWords([STATEMENT_RULES.annual, STATEMENT_RULES.supplementary]).join('; ')}.`,
  );
  doc.end();
  return done;
}

const pagesOf = (bytes: Buffer) => bytes.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;

const pages = pagesOf(await render(0));
const began = performance.now();
for (let n = 1; n <= count; n += 1) await render(n);
const seconds = (performance.now() - began) / 1000;
process.stdout.write(
  `${JSON.stringify({ perSecond: count / seconds, pages, peakMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
