import { describe, expect, it } from 'vitest';
import { schemeInput } from '../../contracts/organisation';
import { FIELD_MESSAGES } from '../../contracts/plain-english';
import { NORMAL_RETIREMENT_AGES } from '../../contracts/scheme-terms';
import type { Scheme } from '../api/types';
import {
  DEFAULT_YEAR_END_VALUES,
  dayWithin,
  RETIREMENT_AGE_HINT,
  schemeBody,
  schemeChangeBody,
  schemeEditValues,
  validateSchemeEdit,
  YEAR_END_MONTHS,
  yearEndDays,
  yearEndInWords,
} from './scheme-fields';
import { validateWith } from './validation';

const scheme: Scheme = {
  id: 's1',
  brokerId: 'b1',
  employerId: 'e1',
  name: 'Shannon Turbines DC Scheme',
  type: 'DC',
  yearEnd: '12-31',
  racKind: null,
  srNumber: null,
  startDate: null,
  employeeContributionBasisPoints: null,
  employerContributionBasisPoints: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the scheme forms’ year end and RAC kind', () => {
  it('offer the months in words and the days each has, 29 February never', () => {
    expect(YEAR_END_MONTHS.map((month) => month.value)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
    ]);
    expect(YEAR_END_MONTHS[0]?.label).toBe('January');
    expect(YEAR_END_MONTHS[11]?.label).toBe('December');
    expect(yearEndDays('12')).toHaveLength(31);
    expect(yearEndDays('04').at(-1)).toBe('30');
    expect(yearEndDays('02').at(-1)).toBe('28');
  });

  it('keep the day when the month changes, or take the new month’s last', () => {
    expect(dayWithin('06', '15')).toBe('15');
    expect(dayWithin('06', '31')).toBe('30');
    expect(dayWithin('02', '30')).toBe('28');
  });

  it('say a year end day first, in words', () => {
    expect(yearEndInWords('12-31')).toBe('31 December');
    expect(yearEndInWords('03-01')).toBe('1 March');
  });

  it('start a new scheme on 31 December and send its year end as the API takes it', () => {
    expect(DEFAULT_YEAR_END_VALUES).toEqual({ yearEndMonth: '12', yearEndDay: '31' });
    const values = {
      name: 'Shannon Turbines RAC',
      type: 'RAC' as const,
      employerId: 'e1',
      ...DEFAULT_YEAR_END_VALUES,
      racKind: 'trust' as const,
    };
    expect(schemeBody(values)).toEqual({
      name: 'Shannon Turbines RAC',
      type: 'RAC',
      employerId: 'e1',
      yearEnd: '12-31',
      racKind: 'trust',
    });
    // A kind chosen before the type moved away from RAC is not sent.
    expect(schemeBody({ ...values, type: 'DC' })).not.toHaveProperty('racKind');
  });

  it('ask an RAC’s kind of a new RAC, in the API’s words', () => {
    const validate = validateWith(schemeInput, schemeBody);
    const values = {
      name: 'Shannon Turbines RAC',
      type: 'RAC' as const,
      employerId: 'abcdefghijklmnopqrstuvwx',
      ...DEFAULT_YEAR_END_VALUES,
      racKind: '' as const,
    };
    expect(validate(values)).toEqual({
      racKind: 'Choose whether the RAC is held under trust or is an individual contract',
    });
    expect(validate({ ...values, racKind: 'contract' })).toEqual({});
  });

  it('send only what an edit changed', () => {
    const values = schemeEditValues(scheme);
    expect(values).toEqual({
      name: scheme.name,
      type: 'DC',
      yearEndMonth: '12',
      yearEndDay: '31',
      racKind: '',
      srNumber: '',
      lei: '',
      startDate: '',
      employeeRate: '',
      employerRate: '',
      retirementAge: '',
      accrualRate: '',
      fundingLevel: '',
    });
    expect(schemeChangeBody(scheme, values)).toEqual({});
    expect(schemeChangeBody(scheme, { ...values, yearEndMonth: '03', yearEndDay: '31' })).toEqual({
      yearEnd: '03-31',
    });
    expect(schemeChangeBody(scheme, { ...values, type: 'RAC', racKind: 'contract' })).toEqual({
      type: 'RAC',
      racKind: 'contract',
    });
    // An RAC becoming a DC scheme sends no kind: the API drops it.
    const rac: Scheme = { ...scheme, type: 'RAC', racKind: 'trust' };
    expect(schemeChangeBody(rac, { ...schemeEditValues(rac), type: 'DC' })).toEqual({
      type: 'DC',
    });
  });

  it('refuse an RAC with no kind, and pass a scheme left as it was', () => {
    expect(validateSchemeEdit(schemeEditValues(scheme))).toEqual({});
    expect(validateSchemeEdit({ ...schemeEditValues(scheme), type: 'RAC' })).toEqual({
      racKind: 'Choose whether the RAC is held under trust or is an individual contract',
    });
    expect(validateSchemeEdit({ ...schemeEditValues(scheme), name: '' })).toHaveProperty('name');
  });
});

describe('the scheme edit form’s details', () => {
  const detailed: Scheme = {
    ...scheme,
    srNumber: 'SR123456',
    startDate: '2024-01-01',
    employeeContributionBasisPoints: 500,
    employerContributionBasisPoints: 725,
  };

  it('start from the scheme as it is, the rates as percentages and empty where none is kept', () => {
    expect(schemeEditValues(detailed)).toMatchObject({
      srNumber: 'SR123456',
      startDate: '2024-01-01',
      employeeRate: '5',
      employerRate: '7.25',
    });
    expect(schemeEditValues(scheme)).toMatchObject({
      srNumber: '',
      startDate: '',
      employeeRate: '',
      employerRate: '',
    });
  });

  it('send only what changed: rates in basis points, a detail emptied as null', () => {
    const values = { ...schemeEditValues(detailed), employerRate: '8', startDate: '' };
    expect(schemeChangeBody(detailed, values)).toEqual({
      employerContributionBasisPoints: 800,
      startDate: null,
    });
    expect(schemeChangeBody(detailed, schemeEditValues(detailed))).toEqual({});
  });

  it('refuse by the API’s own rules, under the fields they were typed in', () => {
    const errors = validateSchemeEdit({
      ...schemeEditValues(detailed),
      srNumber: 'PB-12',
      startDate: '31/02/2024',
      employeeRate: '5.125',
      employerRate: '101',
    });
    expect(errors).toEqual({
      srNumber: FIELD_MESSAGES.srNumber,
      startDate: FIELD_MESSAGES.noSuchDay,
      employeeRate: FIELD_MESSAGES.contributionRate,
      employerRate: FIELD_MESSAGES.contributionRate,
    });
    expect(validateSchemeEdit(schemeEditValues(detailed))).toEqual({});
  });

  it('hold the LEI to the API’s own shape, and send it, or null once emptied', () => {
    expect(
      validateSchemeEdit({ ...schemeEditValues(detailed), lei: '5493001KJTIIGC8Y1R1' }),
    ).toEqual({ lei: 'An LEI is 20 characters: 18 capital letters or digits, then two digits' });
    const lei = '5493001KJTIIGC8Y1R12';
    expect(validateSchemeEdit({ ...schemeEditValues(detailed), lei })).toEqual({});
    expect(schemeChangeBody(detailed, { ...schemeEditValues(detailed), lei })).toEqual({ lei });
    const withLei: Scheme = { ...detailed, lei };
    expect(schemeChangeBody(withLei, { ...schemeEditValues(withLei), lei: ' ' })).toEqual({
      lei: null,
    });
  });

  it('take the normal retirement age in whole years by the API’s own rule, and send it', () => {
    expect(schemeEditValues(scheme).retirementAge).toBe('');
    expect(schemeEditValues({ ...detailed, normalRetirementAge: 65 }).retirementAge).toBe('65');
    const refused = `Enter the normal retirement age in whole years, from ${NORMAL_RETIREMENT_AGES.from} to ${NORMAL_RETIREMENT_AGES.to}`;
    for (const retirementAge of ['49', '76', '65.5', 'sixty']) {
      expect(validateSchemeEdit({ ...schemeEditValues(detailed), retirementAge })).toEqual({
        retirementAge: refused,
      });
    }
    const values = { ...schemeEditValues(detailed), retirementAge: ' 66 ' };
    expect(validateSchemeEdit(values)).toEqual({});
    expect(schemeChangeBody(detailed, values)).toEqual({ normalRetirementAge: 66 });
    const withAge: Scheme = { ...detailed, normalRetirementAge: 66 };
    expect(schemeChangeBody(withAge, { ...schemeEditValues(withAge), retirementAge: '' })).toEqual({
      normalRetirementAge: null,
    });
    expect(RETIREMENT_AGE_HINT).toContain(
      `${NORMAL_RETIREMENT_AGES.from} to ${NORMAL_RETIREMENT_AGES.to}`,
    );
  });

  it('take a DB scheme’s accrual rate and funding level by the API’s own rules, and send them', () => {
    const db: Scheme = { ...detailed, type: 'DB', accrualRate: null, fundingLevelPct: null };
    expect(schemeEditValues(db)).toMatchObject({ accrualRate: '', fundingLevel: '' });
    const values = { ...schemeEditValues(db), accrualRate: ' 1/60 ', fundingLevel: '95.5%' };
    expect(validateSchemeEdit(values)).toEqual({});
    expect(schemeChangeBody(db, values)).toEqual({ accrualRate: '1/60', fundingLevelPct: 95.5 });
    expect(
      validateSchemeEdit({ ...schemeEditValues(db), accrualRate: '60', fundingLevel: 'high' }),
    ).toEqual({
      accrualRate: 'Enter the accrual rate as a fraction of salary a year, such as 1/60',
      fundingLevel:
        'Enter the funding level as a percentage from 0 to 1000, with at most two decimals',
    });
    expect(validateSchemeEdit({ ...schemeEditValues(db), fundingLevel: '1000.5' })).toEqual({
      fundingLevel:
        'Enter the funding level as a percentage from 0 to 1000, with at most two decimals',
    });
    const withTerms: Scheme = { ...db, accrualRate: '1/60', fundingLevelPct: 95.5 };
    expect(schemeEditValues(withTerms)).toMatchObject({
      accrualRate: '1/60',
      fundingLevel: '95.5',
    });
    expect(
      schemeChangeBody(withTerms, { ...schemeEditValues(withTerms), fundingLevel: '' }),
    ).toEqual({ fundingLevelPct: null });
  });

  it('send no DB terms for a scheme of any other type, whatever its hidden fields hold', () => {
    const values = { ...schemeEditValues(detailed), accrualRate: '1/60', fundingLevel: '90' };
    expect(validateSchemeEdit(values)).toEqual({});
    expect(schemeChangeBody(detailed, values)).toEqual({});
  });
});
