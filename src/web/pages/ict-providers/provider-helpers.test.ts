import { describe, expect, it } from 'vitest';
import { ictProviderInput, ictProviderUpdate } from '../../../contracts/dora';
import {
  arrangementInWords,
  createBody,
  identifierError,
  SERVICE_TYPE_CHOICES,
  serviceTypeInWords,
  updateBody,
  valuesOf,
} from './provider-helpers';

const filled = {
  ...valuesOf(null),
  name: 'Harbour Payroll Services',
  identifierType: 'LEI',
  identifier: '635400EXAMPLE0LEI012',
  country: 'ie',
  serviceType: 'S19',
  contractReference: 'HPS-2025-014',
  startedOn: '2025-02-01',
} as const;

describe('the ICT service types in words', () => {
  it('offers S01 to S19 in the words of the annex, each with its code', () => {
    expect(SERVICE_TYPE_CHOICES).toHaveLength(19);
    expect(SERVICE_TYPE_CHOICES[0]).toEqual({
      value: 'S01',
      label: 'ICT project management (S01)',
    });
    expect(serviceTypeInWords('S19')).toBe('Cloud services: SaaS (S19)');
  });
});

describe('whether an arrangement runs', () => {
  it('is current with no end, or until its last day has passed', () => {
    expect(arrangementInWords({ endedOn: null }, '2026-03-01')).toEqual({
      ended: false,
      words: 'Current',
    });
    expect(arrangementInWords({ endedOn: '2026-03-01' }, '2026-03-01')).toEqual({
      ended: false,
      words: 'Current, ends on 1 Mar 2026',
    });
    expect(arrangementInWords({ endedOn: '2026-02-28' }, '2026-03-01')).toEqual({
      ended: true,
      words: 'Ended on 28 Feb 2026',
    });
  });
});

describe('the bodies the form sends', () => {
  it('leaves out on adding, and clears on changing, what is left empty', () => {
    const empty = { ...filled, identifierType: '', identifier: ' ', endedOn: '' } as const;
    expect(createBody(empty)).toMatchObject({
      identifier: undefined,
      identifierType: undefined,
      endedOn: undefined,
    });
    expect(ictProviderInput.safeParse(createBody(empty)).success).toBe(true);
    expect(updateBody(empty)).toMatchObject({
      identifier: null,
      identifierType: null,
      endedOn: null,
    });
    expect(ictProviderUpdate.safeParse(updateBody(empty)).success).toBe(true);
  });

  it('sends the country in capitals, as the API reads it', () => {
    expect(createBody(filled).country).toBe('IE');
    expect(ictProviderInput.safeParse(createBody(filled)).success).toBe(true);
  });

  it('refuses an LEI not of its shape in the words the API uses, and takes an EUID as typed', () => {
    expect(identifierError(filled)).toBeNull();
    expect(identifierError({ ...filled, identifier: '635400-HPS' })).toBe(
      'An LEI is 20 characters: 18 capital letters or digits, then two digits',
    );
    expect(
      identifierError({ ...filled, identifierType: 'EUID', identifier: 'IEIRCO.123456' }),
    ).toBeNull();
  });
});
