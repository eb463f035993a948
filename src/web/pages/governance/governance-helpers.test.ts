import { describe, expect, it } from 'vitest';
import { trusteeInput } from '../../../contracts/governance';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import { owedPeriodEnds } from '../../../contracts/scheme-year-rules';
import type { CalendarEntry, Obligation } from '../../api/types';
import {
  calendarEntryKey,
  defaultCalendarWindow,
  filingPeriodChoices,
  filingPeriodInWords,
  holderNameOf,
  obligationInWords,
  shownDate,
  subjectNameOf,
  timelineOf,
  validateWithDates,
} from './governance-helpers';

describe('the governance pages’ helpers', () => {
  it('show the API’s dates day first, the month in words', () => {
    expect(shownDate('2027-03-01')).toBe('1 Mar 2027');
    expect(shownDate(null)).toBe('—');
  });

  it('open the calendar on a year from today, 29 February landing on 28 February', () => {
    expect(defaultCalendarWindow('2026-05-10')).toEqual({ from: '2026-05-10', to: '2027-05-10' });
    expect(defaultCalendarWindow('2028-02-29')).toEqual({ from: '2028-02-29', to: '2029-02-28' });
  });

  it('key calendar entries apart by date, scheme, kind and subject', () => {
    const entry: CalendarEntry = {
      kind: 'written_policy',
      subjectId: 'p1',
      dueOn: '2027-01-01',
      status: 'ok',
      reason: 'r',
      label: 'law',
      citation: 'c',
      schemeId: 's1',
      schemeName: 'S',
      employerId: 'e1',
      employerName: 'E',
    };
    expect(calendarEntryKey(entry)).toBe('2027-01-01|s1|written_policy|p1');
    expect(calendarEntryKey({ ...entry, kind: 'own_risk_assessment', subjectId: undefined })).toBe(
      '2027-01-01|s1|own_risk_assessment|',
    );
  });

  describe('validateWithDates', () => {
    interface Values {
      name: string;
      appointedOn: string;
      endedOn: string;
    }
    const toBody = (values: Values) => ({
      name: values.name,
      kind: 'individual',
      appointedOn: values.appointedOn,
      endedOn: values.endedOn === '' ? null : values.endedOn,
    });
    const validate = validateWithDates<Values>(trusteeInput, toBody, {
      appointedOn: { required: true },
      endedOn: { required: false },
    });

    it('passes what the API takes', () => {
      expect(validate({ name: 'Aoife', appointedOn: '2024-01-01', endedOn: '' })).toEqual({});
    });

    it('says how to type a date it cannot read, and that a required one is missing', () => {
      expect(validate({ name: 'Aoife', appointedOn: 'next Tuesday', endedOn: '' })).toEqual({
        appointedOn: FIELD_MESSAGES.dayFirstDate,
      });
      expect(validate({ name: 'Aoife', appointedOn: '', endedOn: '' })).toEqual({
        appointedOn: FIELD_MESSAGES.required,
      });
    });

    it('keeps the API’s own sentences for the rest, across fields', () => {
      expect(validate({ name: '', appointedOn: '2024-01-01', endedOn: '2023-01-01' })).toEqual({
        name: FIELD_MESSAGES.name,
        endedOn: FIELD_MESSAGES.endedBeforeAppointed,
      });
    });
  });

  describe('the scheme year', () => {
    const duty = (kind: Obligation['kind'], dueOn?: string, subjectId?: string): Obligation => ({
      kind,
      ...(dueOn ? { dueOn } : {}),
      ...(subjectId ? { subjectId } : {}),
      status: 'ok',
      reason: `${kind} ${subjectId ?? ''}`,
      label: 'law',
      citation: 'c',
    });

    it('lists the dated duties soonest first, leaving out those with no date', () => {
      const timeline = timelineOf([
        duty('trustees'),
        duty('annual_report', '2027-09-30'),
        duty('trustee_training', '2027-05-28', 't2'),
        duty('annual_compliance_statement', '2027-01-31'),
        duty('trustee_training', '2027-05-28', 't1'),
      ]);
      expect(timeline.map((entry) => [entry.kind, entry.subjectId])).toEqual([
        ['annual_compliance_statement', undefined],
        // The same day: in the compliance view's order.
        ['trustee_training', 't2'],
        ['trustee_training', 't1'],
        ['annual_report', undefined],
      ]);
    });

    it('offers the periods a filing may be for, the one chased first', () => {
      // On 28/11/2026 a scheme year ending 31 March last ended on 31/03/2026.
      // Every period the rules may chase can be chosen: the tracked year and the five before it.
      const chased = owedPeriodEnds(
        'annual_report',
        { yearEnd: '12-31', startedOn: '1990-01-01' },
        '2026-11-28',
      );
      expect(filingPeriodChoices('annual_report', '12-31', '2026-11-28')).toEqual(
        [...chased].reverse(),
      );
      expect(chased).toHaveLength(6);
      expect(filingPeriodChoices('annual_report', '03-31', '2026-11-28', 3)).toEqual([
        '2026-03-31',
        '2025-03-31',
        '2024-03-31',
      ]);
      // The compliance statement covers the calendar year, whatever the scheme year.
      expect(filingPeriodChoices('annual_compliance_statement', '03-31', '2026-11-28', 2)).toEqual([
        '2025-12-31',
        '2024-12-31',
      ]);
      // A year is over once its last day is: on 31 December it is the year before that is.
      expect(filingPeriodChoices('annual_scheme_information', '12-31', '2026-12-31', 1)).toEqual([
        '2025-12-31',
      ]);
    });

    it('says a filing’s period in words, day first', () => {
      expect(filingPeriodInWords('annual_report', '2026-03-31')).toBe('Year ended 31 Mar 2026');
      expect(filingPeriodInWords('annual_compliance_statement', '2025-12-31')).toBe(
        'Calendar year 2025',
      );
    });
  });

  describe('whose duty an obligation is', () => {
    const holder = {
      id: 'h1',
      holderName: 'Fionnuala Moran',
      function: 'risk_management' as const,
    };
    const subjects = {
      trustees: [{ id: 't1', name: 'Órla Ní Bhriain' }],
      holders: [holder],
      policies: [{ id: 'p1', kind: 'risk_management' as const }],
    };
    const about = (kind: Obligation['kind'], subjectId?: string) =>
      subjectNameOf({ kind, subjectId }, subjects);

    it('names a key function holder by name and function', () => {
      expect(holderNameOf(holder)).toBe('Fionnuala Moran (Risk management)');
    });

    it('names the trustee of a training or of a fitness and probity assessment', () => {
      expect(about('trustee_training', 't1')).toBe('Órla Ní Bhriain');
      expect(about('fitness_and_probity', 't1')).toBe('Órla Ní Bhriain');
    });

    it('names the holder of a fitness and probity assessment, a notification or a protocol', () => {
      const named = 'Fionnuala Moran (Risk management)';
      expect(about('fitness_and_probity', 'h1')).toBe(named);
      expect(about('key_function_notification', 'h1')).toBe(named);
      expect(about('conflicts_protocol', 'h1')).toBe(named);
      expect(about('key_function', 'h1')).toBe(named);
    });

    it('names a policy by its kind', () => {
      expect(about('written_policy', 'p1')).toBe('Risk management policy');
    });

    it('names no one for a duty of the scheme, an id of another register, or one not yet read', () => {
      expect(about('new_member_information')).toBeUndefined();
      expect(about('own_risk_assessment', 'o1')).toBeUndefined();
      // A trustee's id is no holder's.
      expect(about('key_function_notification', 't1')).toBeUndefined();
      expect(subjectNameOf({ kind: 'trustee_training', subjectId: 't1' }, {})).toBeUndefined();
    });

    it('says the duty, then whose it is where it names someone', () => {
      expect(obligationInWords({ kind: 'fitness_and_probity' }, 'Órla Ní Bhriain')).toBe(
        'Fitness and probity: Órla Ní Bhriain',
      );
      expect(obligationInWords({ kind: 'new_member_information' }, undefined)).toBe(
        'Information for new members',
      );
    });
  });
});
