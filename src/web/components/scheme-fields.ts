import type { FormErrors } from '@mantine/form';
import { dayOfYearInWords, MONTHS_IN_WORDS } from '../../contracts/irish-dates';
import {
  DEFAULT_YEAR_END,
  type RacKind,
  racKindProblem,
  type SchemeType,
  schemeChange,
} from '../../contracts/organisation';
import { percentEntry, readPercent } from '../../contracts/percent';
import { NORMAL_RETIREMENT_AGES } from '../../contracts/scheme-terms';
import type { Scheme } from '../api/types';
import { irishDateRule } from './IrishDateInput';
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

/**
 * A scheme's details as its edit form holds them (docs/decisions/0132-employer-and-scheme-details.md),
 * each as typed and empty for none: the SR number, the LEI (docs/decisions/0139-dora-ict-incidents.md,
 * "The register of information"), the start date (`YYYY-MM-DD` once it reads as
 * a day, see IrishDateInput), each contribution rate as a percentage, and the normal retirement
 * age in whole years, which a Pension Benefit Statement projects to
 * (docs/decisions/0141-pension-benefit-statements.md), with a DB scheme's accrual rate (`1/60`) and
 * funding level (a percentage), which its statements show and are made from.
 */
export interface SchemeDetailsValues {
  srNumber: string;
  lei: string;
  startDate: string;
  employeeRate: string;
  employerRate: string;
  retirementAge: string;
  accrualRate: string;
  fundingLevel: string;
}

/** The retirement age field's hint: the ages the API takes (contracts/scheme-terms.ts). */
export const RETIREMENT_AGE_HINT = `The age a member's benefit statement projects to, in whole years from ${NORMAL_RETIREMENT_AGES.from} to ${NORMAL_RETIREMENT_AGES.to}`;

/** The accrual rate field's hint. */
export const ACCRUAL_RATE_HINT =
  'The pension earned for each year of service, as a fraction of salary, like 1/60';

/** The funding level field's hint. */
export const FUNDING_LEVEL_HINT =
  'The scheme’s assets as a percentage of its liabilities at its last actuarial valuation';

export interface SchemeEditValues extends SchemeYearValues, SchemeDetailsValues {
  name: string;
  type: SchemeType;
}

/** The details' starting values: as the scheme has them, empty where it has none. */
function schemeDetailsValues(scheme: Scheme): SchemeDetailsValues {
  const rate = (basisPoints: number | null) =>
    basisPoints === null ? '' : percentEntry(basisPoints);
  return {
    srNumber: scheme.srNumber ?? '',
    lei: scheme.lei ?? '',
    startDate: scheme.startDate ?? '',
    employeeRate: rate(scheme.employeeContributionBasisPoints),
    employerRate: rate(scheme.employerContributionBasisPoints),
    retirementAge: scheme.normalRetirementAge == null ? '' : String(scheme.normalRetirementAge),
    accrualRate: scheme.accrualRate ?? '',
    fundingLevel: scheme.fundingLevelPct == null ? '' : String(scheme.fundingLevelPct),
  };
}

/** The edit form's starting values: the scheme as it is. */
export function schemeEditValues(scheme: Scheme): SchemeEditValues {
  return {
    name: scheme.name,
    type: scheme.type,
    ...splitYearEnd(scheme.yearEnd),
    racKind: scheme.racKind ?? '',
    ...schemeDetailsValues(scheme),
  };
}

const orNull = (typed: string) => (typed.trim() === '' ? null : typed);

/** A rate as the API takes it: null for nothing typed, else basis points (contracts/percent.ts). */
const rateOf = (typed: string) => (typed.trim() === '' ? null : readPercent(typed));

/**
 * An age as typed: null for nothing, the number for digits, else the text itself, which the API's
 * schema refuses in its own words.
 */
const ageOf = (typed: string): number | string | null => {
  const trimmed = typed.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
};

/**
 * A funding level as typed, with or without its `%`: null for nothing, the number where it reads as
 * one, else the text itself, which the API's schema refuses in its own words.
 */
const levelOf = (typed: string): number | string | null => {
  const trimmed = typed.trim().replace(/\s*%$/, '');
  if (trimmed === '') return null;
  return /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : typed.trim();
};

/**
 * A DB scheme's terms as the API takes them; none for a scheme of any other type, whose terms the
 * API drops itself when it stops being DB (contracts/organisation.ts, dbTermsProblem).
 */
function dbTermsBody(values: SchemeDetailsValues & { type: SchemeType | '' }) {
  if (values.type !== 'DB') return {};
  const level = levelOf(values.fundingLevel);
  return {
    accrualRate: orNull(values.accrualRate.trim()),
    fundingLevelPct: typeof level === 'number' ? level : null,
  };
}

/** The details as the API takes them, once the form's rule has passed: nothing typed is null. */
function schemeDetailsBody(values: SchemeDetailsValues & { type: SchemeType | '' }) {
  const age = ageOf(values.retirementAge);
  return {
    srNumber: orNull(values.srNumber),
    lei: orNull(values.lei),
    startDate: orNull(values.startDate),
    employeeContributionBasisPoints: rateOf(values.employeeRate),
    employerContributionBasisPoints: rateOf(values.employerRate),
    normalRetirementAge: typeof age === 'number' ? age : null,
    ...dbTermsBody(values),
  };
}

/**
 * The details as the form's rule asks the API's schema of them: a rate that cannot be read as a
 * percentage is the text itself, which the schema refuses in its own words.
 */
function schemeDetailsEntered(values: SchemeDetailsValues & { type: SchemeType | '' }) {
  const rateEntered = (typed: string) => rateOf(typed) ?? orNull(typed);
  return {
    ...schemeDetailsBody(values),
    employeeContributionBasisPoints: rateEntered(values.employeeRate),
    employerContributionBasisPoints: rateEntered(values.employerRate),
    normalRetirementAge: ageOf(values.retirementAge),
    ...(values.type === 'DB' ? { fundingLevelPct: levelOf(values.fundingLevel) } : {}),
  };
}

/**
 * What the edit form sends to `PATCH /api/schemes/:id`: only what changed, so the audit record
 * names it. A scheme that stops being an RAC sends no kind: the API drops it itself.
 */
export function schemeChangeBody(scheme: Scheme, values: SchemeEditValues) {
  const yearEnd = yearEndOf(values);
  const racKind = racKindOf(values);
  const details = schemeDetailsBody(values);
  const changedDetails = Object.fromEntries(
    Object.entries(details).filter(
      ([key, value]) => value !== (scheme[key as keyof typeof details] ?? null),
    ),
  ) as Partial<typeof details>;
  return {
    ...(values.name.trim() !== scheme.name ? { name: values.name } : {}),
    ...(values.type !== scheme.type ? { type: values.type } : {}),
    ...(yearEnd !== scheme.yearEnd ? { yearEnd } : {}),
    ...(racKind !== null && racKind !== scheme.racKind ? { racKind } : {}),
    ...changedDetails,
  };
}

/**
 * The edit form's rule: the API's change schema on every field as the form would leave the
 * scheme, and the API's own pairing of a type with an RAC kind (racKindProblem), which the API
 * asks of the scheme as a change leaves it. The start date is first read day first as typed
 * (irishDateRule), so an unreadable date says how to type it.
 */
export function validateSchemeEdit(values: SchemeEditValues): FormErrors {
  const racKind = racKindOf(values);
  const details = schemeDetailsEntered(values);
  const errors = validateWith<SchemeEditValues>(schemeChange, (entered) => ({
    name: entered.name,
    type: entered.type,
    yearEnd: yearEndOf(entered),
    racKind: racKind ?? undefined,
    ...details,
  }))(values);
  // The API's fields as the form's: the rates' sentences show under the fields they were typed in.
  for (const [api, field] of [
    ['employeeContributionBasisPoints', 'employeeRate'],
    ['employerContributionBasisPoints', 'employerRate'],
    ['normalRetirementAge', 'retirementAge'],
    ['fundingLevelPct', 'fundingLevel'],
  ] as const) {
    if (errors[api] !== undefined) {
      errors[field] = errors[api];
      delete errors[api];
    }
  }
  const dateProblem = irishDateRule({ required: false })(values.startDate);
  if (dateProblem !== null) errors.startDate = dateProblem;
  const problem = racKindProblem(values.type, racKind);
  if (problem !== null) errors.racKind ??= problem;
  return errors;
}
