import { numberInWords } from '../../../contracts/counts.js';
import { dateInWords } from '../../../contracts/irish-dates.js';
import {
  type LeavingOption,
  PRESERVATION_MONTHS,
  REFUND_TAX_BASIS_POINTS,
  type Refund,
  type Service,
  serviceInWords,
} from '../../../contracts/member-lifecycle-rules.js';
import { formatCents } from '../../../contracts/money.js';
import { SCHEME_TYPE_NAMES, type SchemeType } from '../../../contracts/organisation.js';
import { type RuleSource, sourcesInWords } from '../../../contracts/rule-sources.js';
import { openTaggedPdf, pdfBytes } from '../../platform/pdf/tagged-pdf.js';

/**
 * What a leaver's statement says (docs/decisions/0135-members-lifecycle.md): who they are in the
 * scheme, their qualifying service, the options the rules give them and why, and the money at the
 * leaving date. It carries no PPS number and no contact details: the member's name is the one
 * personal datum, and it stays out of the document's metadata.
 */
export interface LeavingStatementFacts {
  /** The day the statement is made, `YYYY-MM-DD`. */
  issuedOn: string;
  /** The broker firm that administers the scheme, to whom the member gives their choice. */
  firm: string;
  scheme: { name: string; type: SchemeType };
  employer: string;
  member: { firstName: string; lastName: string; dateJoined: string };
  /** The day the member left; for a member still active, the day the statement supposes. */
  leftOn: string;
  /** Whether the member is still active: the statement shows what they could do if they left. */
  stillActive: boolean;
  qualifyingService: Service;
  preservationEntitled: boolean;
  options: ReadonlyArray<{ option: LeavingOption; name: string; why: string }>;
  /** Where the rules behind the options come from, each labelled law, guidance or product policy. */
  sources: readonly RuleSource[];
  /** What the member's funds were worth on the leaving day; null in a DB scheme, which holds no units. */
  valueAtLeavingCents: number | null;
  /** The member's own contributions (employee and AVC) since they were last paid out. */
  ownContributionsCents: number;
  /** A refund's figures (refundOf), shown where a refund is one of the options. */
  refund: Refund | null;
}

/** The standard rate as a percentage: `20%`. */
const STANDARD_RATE = `${REFUND_TAX_BASIS_POINTS / 100}%`;

/**
 * The leaver's statement as a tagged PDF (the service's one setup, tagged-pdf.ts): written to the
 * member, in the order they need it: what they may do, why, what the money is, and how to say
 * what they choose.
 */
export async function leavingStatementPdf(facts: LeavingStatementFacts): Promise<Buffer> {
  const title = `Leaving service statement: ${facts.scheme.name}`;
  const pdf = await openTaggedPdf({
    title,
    subject: 'A leaver’s options in a pension scheme, with the rules behind them',
    createdAt: new Date(`${facts.issuedOn}T12:00:00Z`),
  });
  const bytes = pdfBytes(pdf.doc);
  const paragraph = (words: string) => {
    pdf.paragraph(words);
    pdf.doc.moveDown(0.5);
  };
  /** Items read as a list by a screen reader: pdfkit tags each under the list it is given. */
  const list = (items: readonly string[]) => {
    const element = pdf.doc.struct('L');
    pdf.root.add(element);
    pdf.doc
      .font('Body')
      .fontSize(10)
      .list([...items], { structParent: element, paragraphGap: 4 });
    element.end();
    pdf.doc.x = pdf.doc.page.margins.left;
    pdf.doc.moveDown(0.5);
  };

  const { member, scheme } = facts;
  const held = facts.valueAtLeavingCents !== null;
  const offered = new Set(facts.options.map((option) => option.option));

  pdf.heading(title, 'H1');
  paragraph(`For ${member.firstName} ${member.lastName}.`);
  paragraph(
    `${scheme.name} is a ${SCHEME_TYPE_NAMES[scheme.type].toLowerCase()} scheme (${scheme.type}) of ${facts.employer}, administered by ${facts.firm}. This statement was issued on ${dateInWords(facts.issuedOn)}.`,
  );
  paragraph(
    facts.stillActive
      ? `You joined the scheme on ${dateInWords(member.dateJoined)} and have not left service. This statement shows what you could do if you left on ${dateInWords(facts.leftOn)}; nothing changes unless you leave.`
      : `You joined the scheme on ${dateInWords(member.dateJoined)} and left service on ${dateInWords(facts.leftOn)}.`,
  );

  pdf.heading('Your qualifying service', 'H2');
  paragraph(
    `You have ${serviceInWords(facts.qualifyingService)} of qualifying service: each period of active membership, from the day you joined or rejoined to the day you left, both days counted, added together since you were last paid out.`,
  );
  paragraph(
    facts.preservationEntitled
      ? `That is at least ${PRESERVATION_MONTHS / 12} years, so you are entitled to a preserved benefit: the scheme keeps your benefit for you until you retire, unless you transfer it.`
      : `That is less than ${PRESERVATION_MONTHS / 12} years, so you are not entitled to a preserved benefit by law; the scheme’s rules say what you may do instead.`,
  );

  pdf.heading('Your options', 'H2');
  paragraph(
    facts.options.length === 1
      ? 'You have one option:'
      : `You have ${numberInWords(facts.options.length)} options; choose one of them:`,
  );
  list(facts.options.map((option) => `${option.name}. ${option.why}`));
  if (facts.sources.length > 0) {
    paragraph('Where these rules come from:');
    list(sourcesInWords(facts.sources).map((line) => `${line}.`));
  }

  pdf.heading('The money at the leaving date', 'H2');
  paragraph(
    facts.stillActive
      ? `These figures are at ${dateInWords(facts.leftOn)}.`
      : `These figures are at the day you left service, ${dateInWords(facts.leftOn)}.`,
  );
  paragraph(`Your own contributions: ${formatCents(facts.ownContributionsCents)}.`);
  if (facts.valueAtLeavingCents !== null) {
    paragraph(
      `The value of your funds on ${dateInWords(facts.leftOn)}: ${formatCents(facts.valueAtLeavingCents)}.`,
    );
    paragraph(
      'Your funds are held as units, and their value changes with the funds’ prices until your units are sold. A refund, a transfer or a retirement benefit is paid from the sale of your units, at the prices of the days they are sold, so what is paid may be more or less than the figures here.',
    );
  } else {
    paragraph(
      'This is a defined benefit scheme: your benefit is worked out from the scheme’s rules, not from funds you hold, and a transfer value is worked out by the scheme’s actuary when a transfer is asked for.',
    );
  }

  const refund = offered.has('refund') ? facts.refund : null;
  if (refund !== null) {
    pdf.heading('What a refund would be', 'H2');
    const lines = [
      `Your own contributions: ${formatCents(refund.ownContributionsCents)}.`,
      ...(refund.grossCents < refund.ownContributionsCents
        ? [
            `Refunded before tax: ${formatCents(refund.grossCents)}, the value of your funds, which is less than your contributions: a refund is never more than your funds are worth.`,
          ]
        : []),
      `Tax at the standard rate of ${STANDARD_RATE}, deducted before it is paid: ${formatCents(refund.taxCents)}.`,
      `Paid to you: ${formatCents(refund.netCents)}.`,
    ];
    list(lines);
    paragraph(
      held
        ? 'A refund ends your membership: nothing more is kept for you in the scheme. What is refunded is settled when your units are sold: your contributions, or the value of your funds on that day if it is less.'
        : 'A refund ends your membership: nothing more is kept for you in the scheme.',
    );
  }

  pdf.heading('How to tell the administrator your choice', 'H2');
  paragraph(
    `Tell ${facts.firm}, which administers the scheme, which option you choose: write to them, or ask your employer, ${facts.employer}, to pass your choice on. Give your name, the scheme’s name and the day from which you want it to take effect.`,
  );
  paragraph(
    offered.has('preserved')
      ? 'Until you choose, your benefit stays in the scheme as a preserved benefit.'
      : 'Until you choose, your benefit stays in the scheme.',
  );

  pdf.end();
  return bytes;
}
