import type { FormErrors } from '@mantine/form';
import { dayOfYearInWords, MONTHS_IN_WORDS } from '../../contracts/irish-dates';
import {
  DEFAULT_YEAR_END,
  type RacKind,
  racKindProblem,
  type SchemeType,
  schemeChange,
} from '../../contracts/organisation';
import type { Scheme } from '../api/types';
import { validateWith } from './validation';

/**
 * The scheme year's end and an RAC's kind as the scheme forms take them
 * (docs/decisions/0122-the-scheme-year.md): the year end as a day and a month chosen from lists,
 * sent as the API's `MM-DD`, and the kind of an RAC, asked of an RAC only. Which days a year may
 * end on is the API's own rule (contracts/organisation.ts), asked here, never restated.
 */

export interface SchemeYearValues {
  /** Empty until chosen. */
  type: SchemeType | '';
  /** `MM`. */
  yearEndMonth: string;
  /** `DD`. */
  yearEndDay: string;
  /** Empty until chosen; asked of an RAC only. */
  racKind: RacKind | '';
}

/** The twelve months, in words, as the year end's month list offers them. */
export const YEAR_END_MONTHS: readonly { value: string; label: string }[] = MONTHS_IN_WORDS.map(
  (label, index) => ({ value: String(index + 1).padStart(2, '0'), label }),
);

const yearEndRule = schemeChange.shape.yearEnd;

/** The days a scheme year may end on in `month` (`MM`): those the API takes, so never 29/02. */
export function yearEndDays(month: string): string[] {
  return Array.from({ length: 31 }, (_, index) => String(index + 1).padStart(2, '0')).filter(
    (day) => yearEndRule.safeParse(`${month}-${day}`).success,
  );
}

/** The day kept when the month changes: the same day, or the new month's last where it has none. */
export function dayWithin(month: string, day: string): string {
  const days = yearEndDays(month);
  return days.includes(day) ? day : (days.at(-1) ?? day);
}

/** A year end (`MM-DD`) as the form's month and day. */
export function splitYearEnd(yearEnd: string): { yearEndMonth: string; yearEndDay: string } {
  return { yearEndMonth: yearEnd.slice(0, 2), yearEndDay: yearEnd.slice(3, 5) };
}

/** The year end the form's values name, as the API takes it: `MM-DD`. */
export function yearEndOf(values: Pick<SchemeYearValues, 'yearEndMonth' | 'yearEndDay'>): string {
  return `${values.yearEndMonth}-${values.yearEndDay}`;
}

/** The new-scheme form's starting year end: the API's default, 31 December. */
export const DEFAULT_YEAR_END_VALUES = splitYearEnd(DEFAULT_YEAR_END);

/** A year end (`MM-DD`) in words, day first: "31 December". */
export function yearEndInWords(yearEnd: string): string {
  return dayOfYearInWords(yearEnd);
}

/** An RAC's kind as the API takes it: the one chosen, for an RAC; nothing for any other scheme. */
export function racKindOf(values: Pick<SchemeYearValues, 'type' | 'racKind'>): RacKind | null {
  return values.type === 'RAC' && values.racKind !== '' ? values.racKind : null;
}

export interface SchemeValues extends SchemeYearValues {
  name: string;
  employerId: string | null;
}

/** The body `POST /api/schemes` takes for the values of the new-scheme form. */
export function schemeBody(values: SchemeValues) {
  const racKind = racKindOf(values);
  return {
    name: values.name,
    type: values.type === '' ? undefined : values.type,
    employerId: values.employerId ?? '',
    yearEnd: yearEndOf(values),
    ...(racKind !== null ? { racKind } : {}),
  };
}

export interface SchemeEditValues extends SchemeYearValues {
  name: string;
  type: SchemeType;
}

/** The edit form's starting values: the scheme as it is. */
export function schemeEditValues(scheme: Scheme): SchemeEditValues {
  return {
    name: scheme.name,
    type: scheme.type,
    ...splitYearEnd(scheme.yearEnd),
    racKind: scheme.racKind ?? '',
  };
}

/**
 * What the edit form sends to `PATCH /api/schemes/:id`: only what changed, so the audit record
 * names it. A scheme that stops being an RAC sends no kind: the API drops it itself.
 */
export function schemeChangeBody(scheme: Scheme, values: SchemeEditValues) {
  const yearEnd = yearEndOf(values);
  const racKind = racKindOf(values);
  return {
    ...(values.name.trim() !== scheme.name ? { name: values.name } : {}),
    ...(values.type !== scheme.type ? { type: values.type } : {}),
    ...(yearEnd !== scheme.yearEnd ? { yearEnd } : {}),
    ...(racKind !== null && racKind !== scheme.racKind ? { racKind } : {}),
  };
}

/**
 * The edit form's rule: the API's change schema on every field as the form would leave the
 * scheme, and the API's own pairing of a type with an RAC kind (racKindProblem), which the API
 * asks of the scheme as a change leaves it.
 */
export function validateSchemeEdit(values: SchemeEditValues): FormErrors {
  const racKind = racKindOf(values);
  const errors = validateWith<SchemeEditValues>(schemeChange, (entered) => ({
    name: entered.name,
    type: entered.type,
    yearEnd: yearEndOf(entered),
    racKind: racKind ?? undefined,
  }))(values);
  const problem = racKindProblem(values.type, racKind);
  if (problem !== null) errors.racKind ??= problem;
  return errors;
}
