import {
  countInWords,
  countInWordsFirst,
  isOrAre,
  type Noun,
  numberInWords,
} from '../../../contracts/counts.js';
import { POLICY_STATUS_NAMES } from '../../../contracts/governance.js';
import {
  chairsOn,
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
import { dateInWords, IRISH_TIME_ZONE } from '../../../contracts/irish-dates.js';
import { SCHEME_TYPE_NAMES, type SchemeType } from '../../../contracts/organisation.js';
import { ROLE_NAMES, type Role } from '../../../contracts/roles.js';
import { sourceInWords } from '../../../contracts/rule-sources.js';
import { openTaggedPdf } from '../../platform/pdf/tagged-pdf.js';

/** Why a document of the scheme is not in the pack (listed in manifest.json with its reason). */
export type ExclusionReason = 'quarantined' | 'not_yet_scanned' | 'member_personal_data';

/**
 * What the summary of an evidence pack says: the scheme's governance registers as they stand and
 * the rule module's assessment of them on the day (docs/decisions/0065-evidence-pack.md). Names of
 * trustees and key function holders are governance facts the Pensions Authority is entitled to,
 * and so is who prepared the pack; e-mail addresses, free-text summaries and descriptions are
 * left out.
 */
export interface EvidenceSummary {
  scheme: {
    name: string;
    type: SchemeType;
    employerName: string;
    /** The Pensions Authority's registration number, `SR` and digits; null until recorded. */
    srNumber: string | null;
  };
  generatedAt: Date;
  /** The day in Ireland the pack was generated, `YYYY-MM-DD`. */
  generatedOn: string;
  /** Who prepared the pack: their name and firm as the service holds them, and their role. */
  preparedBy: { name: string | null; role: Role; firmName: string | null };
  trustees: ReadonlyArray<{
    name: string;
    kind: string;
    directorCount: number | null;
    appointedOn: string;
    endedOn: string | null;
    /** Named chair of the board: shown as chair on the day the pack is prepared, if serving. */
    chair: boolean;
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
    /** The meeting or minute of the trustees' decision, where the approval recorded one. */
    approvalReference: string | null;
    nextReviewDue: string | null;
  }>;
  oraReports: ReadonlyArray<{ performedOn: string; trigger: string; nextDue: string }>;
  compliance: { status: ObligationStatus; obligations: readonly Obligation[] };
  /** The archive paths of the documents the pack carries. */
  documents: readonly string[];
  /** Why each of the scheme's documents the pack leaves out is left out (manifest.json lists them). */
  excluded: readonly ExclusionReason[];
}

/**
 * A value in the words the governance pages use for it (contracts/governance-rules.ts), or as it
 * is when it has none.
 */
const named = <T extends string>(names: Record<T, string>, value: string) =>
  names[value as T] ?? value;

const dateOrDash = (value: string | null) => (value === null ? '—' : dateInWords(value));

const DOCUMENT: Noun = { one: 'document', other: 'documents' };

/** Each reason for leaving a document out, after "one is" / "two are". */
const EXCLUSION_WORDS: Record<ExclusionReason, string> = {
  member_personal_data: 'about one member, whose personal data is no evidence of governance',
  quarantined: 'held back by the malware check',
  not_yet_scanned: 'not yet checked for malware',
};

/** The hour and minute in Ireland, `10:00`, as the cover gives the time the pack was prepared. */
function irishTimeOfDay(at: Date): string {
  return new Intl.DateTimeFormat('en-IE', {
    timeZone: IRISH_TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** pdfkit 0.20 tags a table under `structParent`; its published types predate the option. */
type TaggedTableOptions = PDFKit.Mixins.TableOptionsWithData & {
  structParent: PDFKit.PDFStructureElement;
};
type HeaderCell = PDFKit.Mixins.CellOptions & { scope: 'column' };

/** Room for a table's heading row and its first row, kept on the page of its heading. */
const TABLE_START = 70;

/**
 * The summary as a tagged PDF (PDF/UA-minded): document language and title shown in the window
 * bar, a structure tree of headings, paragraphs, lists and tables with header cells, embedded
 * fonts. Written for its reader at the Pensions Authority: the scheme by name and employer, who
 * prepared it and when, what the pack holds and leaves out, in words, then the standing and the
 * registers; a heading never ends a page. The returned document is a readable stream of the
 * PDF's bytes.
 */
export async function renderSummaryPdf(summary: EvidenceSummary): Promise<PDFKit.PDFDocument> {
  const title = `Governance evidence pack: ${summary.scheme.name}`;
  const { doc, root, heading, paragraph, end } = await openTaggedPdf({
    title,
    subject: 'IORP II governance summary for the Pensions Authority',
    createdAt: summary.generatedAt,
  });
  const table = (
    headers: readonly string[],
    rows: ReadonlyArray<readonly string[]>,
    widths?: ReadonlyArray<number | '*'>,
  ) => {
    const options: TaggedTableOptions = {
      structParent: root,
      defaultStyle: { border: 0.5, padding: 4 },
      ...(widths ? { columnStyles: [...widths] } : {}),
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
  /** A register: how many entries it holds, in words, then its table (none: the sentence alone). */
  const register = (name: string, noun: Noun, count: number, draw: () => void) => {
    heading(name, 'H2', count === 0 ? 20 : TABLE_START);
    paragraph(`${countInWordsFirst(count, noun)} ${count === 1 ? 'is' : 'are'} recorded.`);
    doc.moveDown(0.4);
    if (count > 0) draw();
  };

  heading(title, 'H1');
  const { scheme, preparedBy } = summary;
  paragraph(
    `Scheme: ${scheme.name}, a ${(SCHEME_TYPE_NAMES[scheme.type] ?? scheme.type).toLowerCase()} scheme (${scheme.type})`,
  );
  paragraph(`Employer: ${scheme.employerName || 'not known'}`);
  paragraph(`Pensions Authority registration number: ${scheme.srNumber ?? 'not recorded'}`);
  const who = [preparedBy.name, preparedBy.firmName].filter(Boolean).join(', ');
  paragraph(
    `Prepared on ${dateInWords(summary.generatedOn)} at ${irishTimeOfDay(summary.generatedAt)}, Irish time, by ${who === '' ? 'a user' : who} (${ROLE_NAMES[preparedBy.role].toLowerCase()}).`,
  );

  heading('About this pack', 'H2');
  const carried = summary.documents.length;
  paragraph(packContents(carried));
  if (carried > 0) {
    // pdfkit tags each item (LI, Lbl, LBody) under the parent it is given: the list itself.
    const list = doc.struct('L');
    root.add(list);
    doc
      .font('Body')
      .fontSize(10)
      .list([...summary.documents], { structParent: list });
    list.end();
  }
  const left = summary.excluded.length;
  if (left > 0) {
    const byReason = (Object.keys(EXCLUSION_WORDS) as ExclusionReason[])
      .map((reason) => ({
        reason,
        count: summary.excluded.filter((excluded) => excluded === reason).length,
      }))
      .filter(({ count }) => count > 0);
    const why =
      byReason.length === 1
        ? `${left === 1 ? 'it is' : 'each is'} ${EXCLUSION_WORDS[byReason[0]?.reason as ExclusionReason]}`
        : byReason
            .map(
              ({ reason, count }) =>
                `${numberInWords(count)} ${isOrAre(count)} ${EXCLUSION_WORDS[reason]}`,
            )
            .join('; ');
    paragraph(
      `${countInWordsFirst(left, DOCUMENT)} of the scheme ${isOrAre(left)} left out, and manifest.json lists ${left === 1 ? 'it' : 'each'} with the reason: ${why}.`,
    );
  }

  heading('Compliance', 'H2', TABLE_START);
  paragraph(
    `Overall standing on ${dateInWords(summary.generatedOn)}: ${OBLIGATION_STATUS_LABELS[summary.compliance.status]}.`,
  );
  doc.moveDown(0.4);
  table(
    ['Obligation', 'Standing', 'Due', 'Reason', 'Citation'],
    summary.compliance.obligations.map((obligation) => [
      OBLIGATION_NAMES[obligation.kind],
      OBLIGATION_STATUS_LABELS[obligation.status],
      obligation.dueOn === undefined ? '—' : dateInWords(obligation.dueOn),
      obligation.reason,
      sourceInWords(obligation),
    ]),
    [100, 64, 62, '*', 110],
  );

  register('Trustees', { one: 'trustee', other: 'trustees' }, summary.trustees.length, () =>
    table(
      ['Trustee', 'Kind', 'Directors', 'Appointed', 'Ended'],
      summary.trustees.map((trustee) => [
        chairsOn(trustee, summary.generatedOn) ? `${trustee.name}, chair` : trustee.name,
        named(TRUSTEE_KIND_NAMES, trustee.kind),
        trustee.directorCount === null ? '—' : String(trustee.directorCount),
        dateInWords(trustee.appointedOn),
        dateOrDash(trustee.endedOn),
      ]),
    ),
  );

  register(
    'Key function holders',
    { one: 'key function holder', other: 'key function holders' },
    summary.keyFunctionHolders.length,
    () =>
      table(
        ['Function', 'Holder', 'Appointed', 'Ended', 'Fitness and probity', 'Also serves employer'],
        summary.keyFunctionHolders.map((holder) => [
          named(KEY_FUNCTION_NAMES, holder.function),
          holder.holderName,
          dateInWords(holder.appointedOn),
          dateOrDash(holder.endedOn),
          named(FITNESS_NAMES, holder.fitnessAndProbity),
          holder.alsoServesEmployer ? 'Yes' : 'No',
        ]),
      ),
  );

  register(
    'Written policies',
    { one: 'written policy', other: 'written policies' },
    summary.policies.length,
    () =>
      table(
        ['Policy', 'Title', 'Version', 'Status', 'Approved', 'Next review'],
        summary.policies.map((policy) => [
          named(POLICY_KIND_NAMES, policy.kind),
          policy.title,
          policy.version,
          named(POLICY_STATUS_NAMES, policy.status),
          policy.approvalReference === null
            ? dateOrDash(policy.approvedOn)
            : `${dateOrDash(policy.approvedOn)}, ${policy.approvalReference}`,
          dateOrDash(policy.nextReviewDue),
        ]),
      ),
  );

  register(
    'Own-risk assessments',
    { one: 'own-risk assessment', other: 'own-risk assessments' },
    summary.oraReports.length,
    () =>
      table(
        ['Performed', 'Trigger', 'Next due'],
        summary.oraReports.map((report) => [
          dateInWords(report.performedOn),
          named(ORA_TRIGGER_NAMES, report.trigger),
          dateInWords(report.nextDue),
        ]),
      ),
  );

  end();
  return doc;
}

/** What the pack holds, in words: a pack with none of the scheme's documents says so plainly. */
export function packContents(documents: number): string {
  const manifest =
    'manifest.json, which gives the SHA-256 of every file in the pack and the head of the firm’s audit chain when the pack was prepared';
  return documents === 0
    ? `This pack holds this summary and ${manifest}. None of the scheme’s documents is in it.`
    : `This pack holds this summary, ${countInWords(documents, DOCUMENT)} of the scheme and ${manifest}.`;
}
