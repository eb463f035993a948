import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';
import {
  addYears,
  calendarPosition,
  type FitnessAndProbity,
  type ObligationKind,
  type OraTrigger,
  type TrusteeKind,
} from '../../../contracts/governance-rules';
import { formatIrishDate } from '../../../contracts/irish-dates';
import type { CalendarEntry, ComplianceStatus } from '../../api/types';
import { irishDateRule } from '../../components/IrishDateInput';
import { validateWith } from '../../components/validation';

/**
 * The words the governance pages show for the rule module's values (contracts/governance-rules.ts
 * holds the lists, periods, names of functions and policies, and citations). Each map is keyed by
 * the module's own type, so a value added there fails the build here until it has its words.
 */

/** A standing in words: the badge never relies on its colour alone. */
export const STATUS_LABELS: Record<ComplianceStatus, string> = {
  ok: 'OK',
  due_soon: 'Due soon',
  overdue: 'Overdue',
  incomplete: 'Incomplete',
};

export const STATUS_COLOURS: Record<ComplianceStatus, string> = {
  ok: 'green',
  due_soon: 'yellow',
  overdue: 'red',
  incomplete: 'orange',
};

export const OBLIGATION_NAMES: Record<ObligationKind, string> = {
  scope: 'Scope of IORP II',
  trustees: 'Trustees',
  key_function: 'Key function',
  fitness_and_probity: 'Fitness and probity',
  conflicts_protocol: 'Conflicts protocol',
  written_policy: 'Written policy',
  own_risk_assessment: 'Own-risk assessment',
};

export const TRUSTEE_KIND_NAMES: Record<TrusteeKind, string> = {
  individual: 'Individual',
  corporate: 'Corporate trustee',
};

export const FITNESS_NAMES: Record<FitnessAndProbity, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  failed: 'Not met',
};

export const ORA_TRIGGER_NAMES: Record<OraTrigger, string> = {
  scheduled: 'Scheduled review',
  significant_change: 'After a significant change in the risk profile',
};

/** A date of the API (`YYYY-MM-DD`) day first, or a dash when there is none. */
export function shownDate(isoDate: string | null | undefined): string {
  return isoDate ? formatIrishDate(isoDate) : '—';
}

/** The calendar's window when first opened: today to the same day a year on. */
export function defaultCalendarWindow(today: string): { from: string; to: string } {
  return { from: today, to: addYears(today, 1) };
}

/**
 * A row's key in the calendar, whose entries carry no id of their own: the API's own order of
 * entries (date, scheme, kind, subject), which it keeps unique across pages.
 */
export function calendarEntryKey(entry: CalendarEntry): string {
  return calendarPosition(entry);
}

/**
 * The rule of a governance form: the API's own request schema on the body the form would send
 * (validateWith), except that a date field's entry is first read day first as typed
 * (irishDateRule), so an unreadable date says how to type it, not that it is not `YYYY-MM-DD`.
 */
export function validateWithDates<Values>(
  schema: z.ZodType,
  toBody: (values: Values) => unknown,
  dates: Partial<Record<keyof Values & string, { required: boolean }>>,
): (values: Values) => FormErrors {
  const bySchema = validateWith<Values>(schema, toBody);
  return (values) => {
    const errors = bySchema(values);
    for (const [field, rule] of Object.entries(dates) as [
      keyof Values & string,
      { required: boolean },
    ][]) {
      const value = values[field];
      const problem = irishDateRule(rule)(typeof value === 'string' ? value : '');
      if (problem !== null) errors[field] = problem;
    }
    return errors;
  };
}

/** An optional text field's value for the API: nothing typed is null, not an empty string. */
export function orNull(value: string): string | null {
  return value.trim() === '' ? null : value;
}
