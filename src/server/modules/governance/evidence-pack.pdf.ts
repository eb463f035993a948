import { POLICY_STATUS_NAMES } from '../../../contracts/governance.js';
import {
  FITNESS_NAMES,
  KEY_FUNCTION_NAMES,
  OBLIGATION_NAMES,
  OBLIGATION_STATUS_LABELS,
  type Obligation,
  type ObligationStatus,
  ORA_TRIGGER_NAMES,
  POLICY_KIND_NAMES,
  TRUSTEE_KIND_NAMES,
} from '../../../contracts/governance-rules.js';
import { formatIrishDate } from '../../../contracts/irish-dates.js';
import { SCHEME_TYPE_NAMES, type SchemeType } from '../../../contracts/organisation.js';
import type { Role } from '../../../contracts/roles.js';
import { sourceInWords } from '../../../contracts/rule-sources.js';
import { openTaggedPdf } from '../../platform/pdf/tagged-pdf.js';

/**
 * What the summary of an evidence pack says: the scheme's governance registers as they stand and
 * the rule module's assessment of them on the day (docs/decisions/0065-evidence-pack.md). Names of
 * trustees and key function holders are governance facts the Pensions Authority is entitled to;
 * e-mail addresses, free-text summaries and descriptions are left out.
 */
export interface EvidenceSummary {
  scheme: { id: string; name: string; type: SchemeType; employerName: string };
  generatedAt: Date;
  /** The day in Ireland the pack was generated, `YYYY-MM-DD`. */
  generatedOn: string;
  generatedByRole: Role;
  trustees: ReadonlyArray<{
    name: string;
    kind: string;
    directorCount: number | null;
    appointedOn: string;
    endedOn: string | null;
  }>;
  keyFunctionHolders: ReadonlyArray<{
    function: string;
    holderName: string;
    appointedOn: string;
    endedOn: string | null;
    fitnessAndProbity: string;
    alsoServesEmployer: boolean;
  }>;
  policies: ReadonlyArray<{
    kind: string;
    title: string;
    version: string;
    status: string;
    approvedOn: string | null;
    nextReviewDue: string | null;
  }>;
  oraReports: ReadonlyArray<{ performedOn: string; trigger: string; nextDue: string }>;
  compliance: { status: ObligationStatus; obligations: readonly Obligation[] };
  /** The archive paths of the documents the pack carries. */
  documents: readonly string[];
  /** How many of the scheme's documents the pack leaves out (listed in manifest.json). */
  excludedDocuments: number;
}

/**
 * A value in the words the governance pages use for it (contracts/governance-rules.ts), or as it
 * is when it has none.
 */
const named = <T extends string>(names: Record<T, string>, value: string) =>
  names[value as T] ?? value;

const dateOrDash = (value: string | null) => (value === null ? '—' : formatIrishDate(value));

/** pdfkit 0.20 tags a table under `structParent`; its published types predate the option. */
type TaggedTableOptions = PDFKit.Mixins.TableOptionsWithData & {
  structParent: PDFKit.PDFStructureElement;
};
type HeaderCell = PDFKit.Mixins.CellOptions & { scope: 'column' };

/**
 * The summary as a tagged PDF (PDF/UA-minded): document language and title shown in the window
 * bar, a structure tree of headings, paragraphs, lists and tables with header cells, embedded
 * fonts. The returned document is a readable stream of the PDF's bytes.
 */
export async function renderSummaryPdf(summary: EvidenceSummary): Promise<PDFKit.PDFDocument> {
  const title = `Governance evidence pack: ${summary.scheme.name}`;
  const { doc, root, heading, paragraph, end } = await openTaggedPdf({
    title,
    subject: 'IORP II governance summary for the Pensions Authority',
    createdAt: summary.generatedAt,
  });
  const table = (headers: readonly string[], rows: ReadonlyArray<readonly string[]>) => {
    const options: TaggedTableOptions = {
      structParent: root,
      defaultStyle: { border: 0.5, padding: 4 },
      data: [
        headers.map(
          (text): HeaderCell => ({
            text,
            type: 'TH',
            scope: 'column',
            font: { src: 'Heading', size: 9 },
            backgroundColor: '#eeeeee',
          }),
        ),
        ...rows.map((row) => row.map((text) => ({ text, font: { src: 'Body', size: 9 } }))),
      ],
    };
    doc.table(options);
    doc.x = doc.page.margins.left;
    doc.moveDown(0.5);
  };
  const orNone = (count: number, what: string, draw: () => void) => {
    if (count === 0) paragraph(`No ${what} are recorded.`);
    else draw();
  };

  heading(title, 'H1');
  paragraph(`Scheme: ${summary.scheme.name}`);
  paragraph(
    `Type: ${SCHEME_TYPE_NAMES[summary.scheme.type] ?? summary.scheme.type} (${summary.scheme.type})`,
  );
  paragraph(`Employer: ${summary.scheme.employerName}`);
  paragraph(`Scheme reference: ${summary.scheme.id}`);
  paragraph(
    `Generated on ${formatIrishDate(summary.generatedOn)} at ${summary.generatedAt.toISOString()} by a user with the role ${summary.generatedByRole}.`,
  );

  heading('Compliance', 'H2');
  paragraph(`Overall standing on the day: ${OBLIGATION_STATUS_LABELS[summary.compliance.status]}.`);
  table(
    ['Obligation', 'Standing', 'Due', 'Reason', 'Citation'],
    summary.compliance.obligations.map((obligation) => [
      OBLIGATION_NAMES[obligation.kind],
      OBLIGATION_STATUS_LABELS[obligation.status],
      obligation.dueOn === undefined ? '—' : formatIrishDate(obligation.dueOn),
      obligation.reason,
      sourceInWords(obligation),
    ]),
  );

  heading('Trustees', 'H2');
  orNone(summary.trustees.length, 'trustees', () =>
    table(
      ['Trustee', 'Kind', 'Directors', 'Appointed', 'Ended'],
      summary.trustees.map((trustee) => [
        trustee.name,
        named(TRUSTEE_KIND_NAMES, trustee.kind),
        trustee.directorCount === null ? '—' : String(trustee.directorCount),
        formatIrishDate(trustee.appointedOn),
        dateOrDash(trustee.endedOn),
      ]),
    ),
  );

  heading('Key function holders', 'H2');
  orNone(summary.keyFunctionHolders.length, 'key function holders', () =>
    table(
      ['Function', 'Holder', 'Appointed', 'Ended', 'Fitness and probity', 'Also serves employer'],
      summary.keyFunctionHolders.map((holder) => [
        named(KEY_FUNCTION_NAMES, holder.function),
        holder.holderName,
        formatIrishDate(holder.appointedOn),
        dateOrDash(holder.endedOn),
        named(FITNESS_NAMES, holder.fitnessAndProbity),
        holder.alsoServesEmployer ? 'Yes' : 'No',
      ]),
    ),
  );

  heading('Written policies', 'H2');
  orNone(summary.policies.length, 'written policies', () =>
    table(
      ['Policy', 'Title', 'Version', 'Status', 'Approved', 'Next review'],
      summary.policies.map((policy) => [
        named(POLICY_KIND_NAMES, policy.kind),
        policy.title,
        policy.version,
        named(POLICY_STATUS_NAMES, policy.status),
        dateOrDash(policy.approvedOn),
        dateOrDash(policy.nextReviewDue),
      ]),
    ),
  );

  heading('Own-risk assessments', 'H2');
  orNone(summary.oraReports.length, 'own-risk assessments', () =>
    table(
      ['Performed', 'Trigger', 'Next due'],
      summary.oraReports.map((report) => [
        formatIrishDate(report.performedOn),
        named(ORA_TRIGGER_NAMES, report.trigger),
        formatIrishDate(report.nextDue),
      ]),
    ),
  );

  heading('Documents in this pack', 'H2');
  if (summary.documents.length === 0) paragraph('The pack carries no documents.');
  else {
    // pdfkit tags each item (LI, Lbl, LBody) under the parent it is given: the list itself.
    const list = doc.struct('L');
    root.add(list);
    doc
      .font('Body')
      .fontSize(10)
      .list([...summary.documents], { structParent: list });
    list.end();
  }
  if (summary.excludedDocuments > 0) {
    paragraph(
      `${summary.excludedDocuments} document(s) of the scheme are not included; manifest.json lists each with the reason.`,
    );
  }
  paragraph(
    'manifest.json gives the SHA-256 of every file in this pack and the head of the firm’s audit chain when the pack was generated.',
  );

  end();
  return doc;
}
