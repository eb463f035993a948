import type { AssessmentView, CostView } from '../../../contracts/auto-enrolment.js';
import {
  AE_RULES,
  AE_STATUS_LABELS,
  AE_STATUS_MEANINGS,
  AE_STATUSES,
} from '../../../contracts/auto-enrolment-rules.js';
import { countInWords } from '../../../contracts/counts.js';
import { dateInWords } from '../../../contracts/irish-dates.js';
import { formatCents } from '../../../contracts/money.js';
import { sourcesInWords } from '../../../contracts/rule-sources.js';
import { openTaggedPdf, pdfBytes } from '../../platform/pdf/tagged-pdf.js';

/**
 * The employer's one-page summary of an assessment: counts by status, why, and the cost
 * comparison. Tagged PDF (headings, paragraphs, a table as a list) in English, so that a screen
 * reader reads it in order. It names no employee: the counts are what an employer's board needs,
 * and the CSV export holds the people.
 */
export async function summaryPdf(
  employerName: string,
  assessment: AssessmentView,
  cost: CostView,
  createdAt: Date,
): Promise<Buffer> {
  const title = `Auto-enrolment readiness: ${employerName}`;
  // The service's one tagged-PDF setup (embedded Noto Sans: the fada and the euro sign).
  const pdf = await openTaggedPdf({
    title,
    subject: 'Auto-enrolment readiness summary',
    createdAt,
  });
  const bytes = pdfBytes(pdf.doc);
  const heading = (tag: 'H1' | 'H2', words: string) => pdf.heading(words, tag);
  const paragraph = (words: string) => {
    pdf.paragraph(words);
    pdf.doc.moveDown(0.5);
  };

  heading('H1', title);
  paragraph(
    `Assessed on ${dateInWords(assessment.asOf)} over the pay periods ending from ${dateInWords(assessment.windowStart)} to ${dateInWords(assessment.windowEnd)}, from the payroll this employer uploaded.`,
  );
  heading('H2', 'Employees by status');
  for (const status of AE_STATUSES) {
    paragraph(`${AE_STATUS_LABELS[status]}: ${assessment.totals[status]}`);
  }
  // Each status as the pages explain it, from the rule module that defines them.
  heading('H2', 'What the statuses mean');
  for (const status of AE_STATUSES) {
    paragraph(`${AE_STATUS_LABELS[status]}: ${AE_STATUS_MEANINGS[status]}.`);
  }
  heading('H2', 'Cost a year: the minimum standard against My Future Fund');
  paragraph(
    cost.employees === 0
      ? 'No member is below the standard: there is nothing to compare.'
      : `For the ${countInWords(cost.employees, { one: 'member', other: 'members' })} below the standard: the employer’s extra cost a year of meeting the minimum standard, and its contributions a year to My Future Fund at each year’s rate.`,
  );
  for (const year of cost.employees === 0 ? [] : cost.years) {
    paragraph(
      `${year.year} (employer rate ${year.employerBasisPoints / 100}%): minimum standard ${formatCents(year.minimumStandardCents)}; My Future Fund ${formatCents(year.myFutureFundCents)}.`,
    );
  }
  heading('H2', 'Sources');
  // Each instrument named once, its provisions together.
  for (const line of sourcesInWords([
    AE_RULES.eligibility,
    AE_RULES.exemptEmployment,
    AE_RULES.minimumStandard,
  ])) {
    paragraph(`${line}.`);
  }
  paragraph(`In force from ${dateInWords(AE_RULES.eligibility.effectiveFrom)}.`);
  pdf.end();
  return bytes;
}
