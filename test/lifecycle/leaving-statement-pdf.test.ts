import { describe, expect, it } from 'vitest';
import {
  LEAVING_OPTION_NAMES,
  LIFECYCLE_RULES,
  leavingOptions,
  refundOf,
  serviceBetween,
  serviceInWords,
} from '../../src/contracts/member-lifecycle-rules.js';
import { sourceInWords } from '../../src/contracts/rule-sources.js';
import {
  type LeavingStatementFacts,
  leavingStatementPdf,
} from '../../src/server/modules/lifecycle/leaving-statement.pdf.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';

/**
 * The leaver's statement (docs/decisions/0135-members-lifecycle.md): what a leaver may do and
 * why, read back from the PDF's text as a screen reader or a copy and paste gets it.
 */

const JOINED = '2024-03-01';

/** A leaver of a DC scheme that allows refunds, on `leftOn`, as the server would describe them. */
function factsFor(leftOn: string, overrides: Partial<LeavingStatementFacts> = {}) {
  const service = serviceBetween(JOINED, leftOn);
  const leaving = leavingOptions(service, { type: 'DC', refundsAllowed: true });
  const offered = new Set(leaving.options.map((option) => option.option));
  const sources = [
    ...(offered.has('preserved') ? [LIFECYCLE_RULES.preservation] : []),
    ...(offered.has('refund') ? [LIFECYCLE_RULES.refund, LIFECYCLE_RULES.refundTax] : []),
    LIFECYCLE_RULES.transfer,
    LIFECYCLE_RULES.serviceCounted,
  ].map(({ label, citation }) => ({ label, citation }));
  const facts: LeavingStatementFacts = {
    issuedOn: '2026-03-02',
    firm: 'Murphy & Byrne Brokers',
    scheme: { name: 'Acme Staff Pension Scheme', type: 'DC' },
    employer: 'Acme Ltd',
    member: { firstName: 'Síofra', lastName: 'Ní Bhriain', dateJoined: JOINED },
    leftOn,
    stillActive: false,
    qualifyingService: leaving.qualifyingService,
    preservationEntitled: leaving.preservationEntitled,
    options: leaving.options.map((option) => ({
      ...option,
      name: LEAVING_OPTION_NAMES[option.option],
    })),
    sources,
    valueAtLeavingCents: 412_345,
    ownContributionsCents: 380_000,
    refund: refundOf(380_000, 412_345),
    ...overrides,
  };
  return facts;
}

async function textOf(facts: LeavingStatementFacts) {
  const bytes = await leavingStatementPdf(facts);
  return { bytes, raw: bytes.toString('latin1'), text: flowing(readPdf(bytes).text) };
}

describe('the leaving service statement', () => {
  it('is a tagged PDF whose title names the scheme, never the member', async () => {
    const { bytes, raw, text } = await textOf(factsFor('2026-01-31'));
    expect(raw.startsWith('%PDF-1.7')).toBe(true);
    expect(raw).toContain('/StructTreeRoot');
    expect(raw).toMatch(/\/Lang \(en-IE\)/);
    expect(raw).toContain('/DisplayDocTitle true');
    for (const tag of ['/S /H1', '/S /H2', '/S /P', '/S /L']) expect(raw, tag).toContain(tag);
    // pdfkit writes each entry of the document's Info as an object of its own.
    const { objects } = readPdf(bytes);
    const info = objects.get(Number(/\/Info (\d+) 0 R/.exec(raw)?.[1])) ?? '';
    const titleOf = objects.get(Number(/\/Title (\d+) 0 R/.exec(info)?.[1]));
    expect(titleOf?.trim()).toBe('(Leaving service statement: Acme Staff Pension Scheme)');
    expect(text).toContain('Leaving service statement: Acme Staff Pension Scheme');
    // The member's name is on the page, for them; the metadata stays free of it.
    expect(text).toContain('For Síofra Ní Bhriain.');
    expect(raw).not.toMatch(/Bhriain|Siofra/);
  });

  it('offers a leaver of 1 year and 11 months a refund and a transfer, and says what the refund is', async () => {
    const facts = factsFor('2026-01-31');
    expect(serviceInWords(facts.qualifyingService)).toBe('1 year and 11 months');
    const { text } = await textOf(facts);
    for (const phrase of [
      'You joined the scheme on 1 Mar 2024 and left service on 31 Jan 2026.',
      'You have 1 year and 11 months of qualifying service',
      'That is less than 2 years, so you are not entitled to a preserved benefit',
      `${LEAVING_OPTION_NAMES.refund}. ${LIFECYCLE_RULES.refund.says}`,
      LEAVING_OPTION_NAMES.transfer,
      `${sourceInWords(LIFECYCLE_RULES.refund)}.`,
      `${sourceInWords(LIFECYCLE_RULES.refundTax)}.`,
      // The label of a product policy in words, never a statute.
      `Product policy: ${LIFECYCLE_RULES.serviceCounted.citation}.`,
      'What a refund would be',
      'Your own contributions: €3,800.00.',
      'Tax at the standard rate of 20%, deducted before it is paid: €760.00.',
      'Paid to you: €3,040.00.',
      'These figures are at the day you left service, 31 Jan 2026.',
      'The value of your funds on 31 Jan 2026: €4,123.45.',
      'their value changes with the funds’ prices until your units are sold',
      'Tell Murphy & Byrne Brokers, which administers the scheme, which option you choose',
    ]) {
      expect(text, phrase).toContain(flowing(phrase));
    }
    expect(text).not.toContain(LEAVING_OPTION_NAMES.preserved);
    expect(text).not.toContain('entitled to a preserved benefit:');
  });

  it('offers a leaver of 2 years a preserved benefit and a transfer, and no refund', async () => {
    const facts = factsFor('2026-02-28');
    expect(serviceInWords(facts.qualifyingService)).toBe('2 years');
    const { text } = await textOf(facts);
    for (const phrase of [
      'You have 2 years of qualifying service',
      'That is at least 2 years, so you are entitled to a preserved benefit',
      `${LEAVING_OPTION_NAMES.preserved}. ${LIFECYCLE_RULES.preservation.says}`,
      `${LEAVING_OPTION_NAMES.transfer}. ${LIFECYCLE_RULES.transfer.says}`,
      // One act, its two sections on one line.
      'Law: Pensions Act 1990 s.28 (Part III, preservation of benefits) and s.34.',
      'Until you choose, your benefit stays in the scheme as a preserved benefit.',
    ]) {
      expect(text, phrase).toContain(flowing(phrase));
    }
    expect(text).not.toContain(LEAVING_OPTION_NAMES.refund);
    // Refund figures given without a refund among the options are not shown.
    expect(text).not.toContain('What a refund would be');
    expect(text).not.toContain('Paid to you');
  });

  it('caps a refund at the value of the funds, and explains a DB scheme’s money without a value', async () => {
    const fallen = await textOf(factsFor('2026-01-31', { refund: refundOf(380_000, 300_000) }));
    expect(fallen.text).toContain(
      flowing(
        'Refunded before tax: €3,000.00, the value of your funds, which is less than your contributions',
      ),
    );
    expect(fallen.text).toContain('Paid to you: €2,400.00.');

    const db = await textOf(
      factsFor('2026-02-28', {
        scheme: { name: 'Acme Defined Benefit Plan', type: 'DB' },
        valueAtLeavingCents: null,
        refund: null,
      }),
    );
    expect(db.text).toContain('a defined benefit scheme (DB)');
    expect(db.text).toContain(flowing('a transfer value is worked out by the scheme’s actuary'));
    expect(db.text).not.toContain('The value of your funds');
  });

  it('carries no PPS number and no e-mail address', async () => {
    for (const leftOn of ['2026-01-31', '2026-02-28']) {
      const { text } = await textOf(factsFor(leftOn));
      // A PPS number is seven digits and one or two letters; an address has an @.
      expect(text).not.toMatch(/\b\d{7}[A-W][A-IW]?\b/i);
      expect(text).not.toContain('@');
    }
  });
});
