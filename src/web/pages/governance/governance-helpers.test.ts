import { describe, expect, it } from 'vitest';
import { trusteeInput } from '../../../contracts/governance';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import type { CalendarEntry } from '../../api/types';
import {
  calendarEntryKey,
  defaultCalendarWindow,
  shownDate,
  validateWithDates,
} from './governance-helpers';

describe('the governance pages’ helpers', () => {
  it('show the API’s dates day first', () => {
    expect(shownDate('2027-03-01')).toBe('01/03/2027');
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
});
