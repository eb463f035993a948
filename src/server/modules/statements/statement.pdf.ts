import { dateInWords } from '../../../contracts/irish-dates.js';
import { formatCents } from '../../../contracts/money.js';
import { SCHEME_TYPE_NAMES } from '../../../contracts/organisation.js';
import { lawInProse } from '../../../contracts/rule-sources.js';
import {
  MATERIAL_CHANGES,
  PROJECTION_CAVEAT,
  STATEMENT_RULES,
  SUPPLEMENTARY_INFORMATION,
} from '../../../contracts/statement-rules.js';
import type { StatementFigures } from '../../../contracts/statements.js';
import { openTaggedPdf, pdfBytes } from '../../platform/pdf/tagged-pdf.js';

/** The title every statement carries, as the regulations ask (STATEMENT_RULES.concise). */
export const statementTitle = (figures: Pick<StatementFigures, 'schemeName'>) =>
  `Pension Benefit Statement: ${figures.schemeName}`;

const percent = (value: number) => `${value}%`;
/**
 * Lets the requests waiting be answered between a statement's sections: drawing one takes tens of
 * milliseconds of the thread that serves them (docs/decisions/0141-pension-benefit-statements.md,
 * "Speed").
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const years = (months: number) => {
  const whole = Math.floor(months / 12);
  const rest = months % 12;
  return rest === 0 ? `${whole} years` : `${whole} years and ${rest} months`;
};

/**
 * A member's Pension Benefit Statement as one concise tagged PDF
 * (docs/decisions/0141-pension-benefit-statements.md): the information date first and large, then
 * what the member has, what was paid and charged in the year, what it may come to, and where to
 * read more. Only this member's figures, all worked before (statement-rules.ts); nothing here
 * computes. The member's name is in the text, never in the document's metadata.
 */
export async function statementPdf(figures: StatementFigures): Promise<Buffer> {
  const title = statementTitle(figures);
  const pdf = await openTaggedPdf({
    title,
    subject: `Your pension benefits at ${dateInWords(figures.informationDate)}`,
    createdAt: new Date(`${figures.informationDate}T12:00:00Z`),
  });
  const bytes = pdfBytes(pdf.doc);
  const { doc, root } = pdf;
  const paragraph = (words: string) => {
    pdf.paragraph(words);
    doc.moveDown(0.4);
  };
  const list = (items: readonly string[]) => {
    const element = doc.struct('L');
    root.add(element);
    doc
      .font('Body')
      .fontSize(10)
      .list([...items], { structParent: element, paragraphGap: 3 });
    element.end();
    doc.x = doc.page.margins.left;
    doc.moveDown(0.4);
  };
  /** Label and figure rows, tagged as a table a screen reader reads row by row. */
  const table = (rows: ReadonlyArray<readonly [string, string]>) => {
    const element = doc.struct('Table');
    root.add(element);
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    pdf.keepTogether(rows.length * 16);
    for (const [label, value] of rows) {
      const row = doc.struct('TR');
      element.add(row);
      const y = doc.y;
      doc.font('Body').fontSize(10);
      row.add(
        doc.struct('TH', {}, () => {
          doc.text(label, left, y, { width: width * 0.62 });
        }),
      );
      row.add(
        doc.struct('TD', {}, () => {
          doc.font('Heading').text(value, left + width * 0.62, y, {
            width: width * 0.38,
            align: 'right',
          });
        }),
      );
      row.end();
      doc.font('Body');
      doc.x = left;
      doc.moveDown(0.25);
    }
    element.end();
    doc.moveDown(0.4);
  };

  pdf.heading(title, 'H1');
  // The date the information refers to, prominent (STATEMENT_RULES.concise).
  doc.font('Heading').fontSize(14);
  doc.text(`Your benefits at ${dateInWords(figures.informationDate)}`, {
    structParent: root,
    structType: 'P',
  });
  doc.moveDown(0.6);
  doc.font('Body').fontSize(10);

  if (figures.changes.length > 0) {
    await nextTurn();
    pdf.heading('What has changed since your last statement', 'H2', 30);
    list(figures.changes.map((change) => MATERIAL_CHANGES[change]));
  }

  await nextTurn();
  pdf.heading('About you and your scheme', 'H2');
  table([
    ['Name', figures.memberName],
    ['Date of birth', dateInWords(figures.dateOfBirth)],
    ['Membership', figures.status === 'active' ? 'Active member' : 'Deferred member'],
    ['Retirement age used', `${figures.retirementAge}`],
    ['You reach it on', dateInWords(figures.retirementDate)],
    ['Scheme', figures.schemeName],
    ['Type', SCHEME_TYPE_NAMES[figures.schemeType]],
  ]);
  paragraph(
    `${figures.firm} administers the scheme. To ask about this statement, or to have it on paper, contact ${figures.firm} and give your name and the scheme’s name.`,
  );

  if (figures.dc) {
    const dc = figures.dc;
    await nextTurn();
    pdf.heading('Your fund', 'H2');
    table([
      ...dc.funds.map(
        (fund) =>
          [
            `${fund.fundName}: ${fund.units} units at €${fund.price}`,
            formatCents(fund.valueCents),
          ] as const,
      ),
      ...((dc.awaitingInvestmentCents ?? 0) > 0
        ? [
            [
              'Paid in and not yet invested in a fund',
              formatCents(dc.awaitingInvestmentCents ?? 0),
            ] as const,
          ]
        : []),
      [`Fund value at ${dateInWords(figures.informationDate)}`, formatCents(dc.fundValueCents)],
    ]);
  }
  if (figures.db) {
    const db = figures.db;
    await nextTurn();
    pdf.heading('Your pension', 'H2');
    table([
      ['Accrual rate', `${db.accrualRate} of pensionable salary for each year of service`],
      ['Pensionable salary', formatCents(db.pensionableSalaryCents)],
      ['Pensionable service', years(db.serviceMonths)],
      ['Pension accrued, a year', formatCents(db.accruedPensionCents)],
      [
        `Pension at normal retirement age ${figures.retirementAge}, a year`,
        formatCents(db.projectedPensionCents),
      ],
      ['Scheme funding level', percent(db.fundingLevelPct)],
    ]);
    paragraph(
      'The pension at normal retirement age is in today’s money: it counts your service to that age at your salary today. The funding level is the scheme’s assets as a share of what it needs to pay all its benefits.',
    );
  }

  await nextTurn();
  pdf.heading(
    `Paid in and charged from ${dateInWords(figures.year.from)} to ${dateInWords(figures.year.to)}`,
    'H2',
  );
  table([
    ['Your contributions', formatCents(figures.year.memberCents)],
    ['Your employer’s contributions', formatCents(figures.year.employerCents)],
    ['Costs deducted', formatCents(figures.year.costsCents)],
  ]);

  if (figures.prsa) {
    const account = figures.prsa;
    await nextTurn();
    pdf.heading(
      `Statement of account, ${dateInWords(account.from)} to ${dateInWords(account.to)}`,
      'H2',
    );
    table([
      ['Value at the start', formatCents(account.openingCents)],
      ['Paid in', formatCents(account.contributionsCents)],
      ['Charges', formatCents(account.costsCents)],
      ['Investment return', formatCents(account.investmentReturnCents)],
      ['Value at the end', formatCents(account.closingCents)],
    ]);
  }

  if (figures.dc) {
    const dc = figures.dc;
    await nextTurn();
    pdf.heading(`What your pension may be at ${figures.retirementAge}, in today’s money`, 'H2');
    table([
      ['Best estimate: fund', formatCents(dc.bestEstimate.fundCents)],
      ['Best estimate: pension a year', formatCents(dc.bestEstimate.pensionCents)],
      ['Unfavourable: fund', formatCents(dc.unfavourable.fundCents)],
      ['Unfavourable: pension a year', formatCents(dc.unfavourable.pensionCents)],
    ]);
    paragraph(PROJECTION_CAVEAT);
    paragraph(
      `Assumptions (${dc.assumptions.name}, version ${dc.assumptions.version}): a return of ${percent(dc.assumptions.bestEstimateReturnPct)} a year (best estimate) or ${percent(dc.assumptions.unfavourableReturnPct)} (unfavourable), inflation of ${percent(dc.assumptions.inflationPct)}, salaries growing by ${percent(dc.assumptions.salaryGrowthPct)}, yearly charges of ${percent(Math.round(dc.chargeBasisPoints) / 100)}, contributions of ${formatCents(dc.annualContributionCents)} a year, over ${dc.years} years, and €${dc.assumptions.annuityFactor} buying €1 a year of pension. Source: ${dc.assumptions.source}.`,
    );
  }

  await nextTurn();
  const givenUnder = `This statement is given under ${lawInProse([STATEMENT_RULES.annual, STATEMENT_RULES.supplementary])}.`;
  // The last section is kept on one page, so its closing sentence never stands alone on a page of
  // its own: a heading, a line, the list and the sentence, measured in the type they are set in.
  doc.font('Body').fontSize(10);
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  pdf.keepTogether(
    60 +
      SUPPLEMENTARY_INFORMATION.reduce(
        (height, item) => height + doc.heightOfString(item, { width: width - 20 }) + 3,
        0,
      ) +
      doc.heightOfString(givenUnder, { width }) +
      20,
  );
  pdf.heading('Where to find more', 'H2');
  paragraph('Ask the administrator for any of these, free of charge:');
  list(SUPPLEMENTARY_INFORMATION);
  paragraph(givenUnder);

  await nextTurn();
  pdf.end();
  return bytes;
}
