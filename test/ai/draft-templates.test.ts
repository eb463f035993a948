import { describe, expect, it } from 'vitest';
import { DRAFT_KINDS, placeholdersIn } from '../../src/contracts/ai.js';
import { POLICY_KINDS } from '../../src/contracts/governance-rules.js';
import {
  type DraftFacts,
  type DraftNames,
  type DraftRequest,
  fillableFromTheRecord,
  filledFromTheRecord,
  templateDraft,
} from '../../src/server/modules/ai/draft-templates.rules.js';

/**
 * A draft "filled in from scheme facts" leaves a placeholder only for what the scheme's record
 * does not hold: its name, its employer's, its type and its size are written in.
 */
const FACTS: DraftFacts = {
  schemeType: 'DC',
  memberBand: '10 to 49 members',
  trustees: { individual: 2, corporate: 0, corporateDirectors: 0 },
  keyFunctions: [],
  policies: [],
  lastOra: null,
};
const NAMES: DraftNames = {
  schemeName: 'Barrow Valley Staff Pension Scheme',
  employerName: 'Barrow Valley Foods Ltd',
};

const everyDraft: DraftRequest[] = DRAFT_KINDS.flatMap((kind): DraftRequest[] =>
  kind === 'written_policy'
    ? POLICY_KINDS.map((policyKind) => ({ kind, policyKind }))
    : [{ kind, policyKind: null }],
);

describe('a draft from the template', () => {
  it.each(everyDraft)(
    'leaves no placeholder the scheme’s record could fill: $kind $policyKind',
    ({ kind, policyKind }) => {
      const text = templateDraft({ kind, policyKind }, FACTS, NAMES);
      expect(placeholdersIn(text).filter(fillableFromTheRecord)).toEqual([]);
      expect(text).not.toContain('[scheme name]');
    },
  );

  it('names the scheme where the text speaks of it', () => {
    const policy = templateDraft(
      { kind: 'written_policy', policyKind: 'risk_management' },
      FACTS,
      NAMES,
    );
    expect(policy).toContain(
      'the trustees of Barrow Valley Staff Pension Scheme manage risk management',
    );
    const letter = templateDraft(
      { kind: 'kfh_appointment_letter', policyKind: null },
      FACTS,
      NAMES,
    );
    expect(letter).toContain('key function of Barrow Valley Staff Pension Scheme');
    // What the record does not hold stays for a person to fill in.
    expect(placeholdersIn(letter)).toEqual([
      '[name of the key function holder]',
      '[key function]',
      '[date]',
      '[name, date]',
    ]);
  });

  it('writes the last own-risk assessment’s dates in words and counts the trustees in English', () => {
    const outline = (trustees: DraftFacts['trustees']) =>
      templateDraft(
        { kind: 'ora_outline', policyKind: null },
        { ...FACTS, trustees, lastOra: { performedOn: '2024-03-05', nextDue: '2027-03-05' } },
        NAMES,
      );
    const one = outline({ individual: 0, corporate: 1, corporateDirectors: 3 });
    expect(one).toContain('The last was performed on 5 Mar 2024; the next is due by 5 Mar 2027.');
    expect(one).toContain('with 1 trustee and the key functions held');
    expect(one).not.toMatch(/\d{4}-\d{2}-\d{2}|\(s\)/);
    expect(outline({ individual: 2, corporate: 1, corporateDirectors: 2 })).toContain(
      'with 3 trustees and the key functions held',
    );
  });
});

describe('a provider’s draft', () => {
  it('has the placeholders the record can fill filled, however they are written, and the others left', () => {
    const written = [
      'Policy of [Scheme Name], sponsored by [employer’s name] ([sponsoring employer]).',
      'A [scheme type] scheme of [number of members]; approved on [date] by [name of trustee].',
      'Again: [scheme name].',
    ].join('\n');
    expect(filledFromTheRecord(written, FACTS, NAMES)).toBe(
      [
        'Policy of Barrow Valley Staff Pension Scheme, sponsored by Barrow Valley Foods Ltd (Barrow Valley Foods Ltd).',
        'A Defined contribution scheme of 10 to 49 members; approved on [date] by [name of trustee].',
        'Again: Barrow Valley Staff Pension Scheme.',
      ].join('\n'),
    );
  });

  it('leaves a placeholder as it is when the record holds nothing for it', () => {
    expect(filledFromTheRecord('Of [employer name].', FACTS, { ...NAMES, employerName: '' })).toBe(
      'Of [employer name].',
    );
  });
});
