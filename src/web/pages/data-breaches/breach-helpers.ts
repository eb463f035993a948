import type { FormErrors } from '@mantine/form';
import { dpcNotifiable } from '../../../contracts/data-breach-rules';
import { instantInIreland, isIsoDate } from '../../../contracts/irish-dates';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import type { Action } from '../../../contracts/policy';
import type { DataBreach } from '../../api/types';
import { dateEntryProblem } from '../../components/IrishDateInput';

/**
 * The pure part of the data breaches page (docs/decisions/0138-personal-data-breaches.md): which
 * steps a breach offers to whom, and the instants its forms take as a day and a time in Ireland.
 */

/** A step on a breach, in the order the page offers them. */
export type BreachStep = 'notify' | 'membersTold' | 'close';

/** The policy action each step needs (src/contracts/policy.ts). */
export const STEP_ACTIONS: Record<BreachStep, Action> = {
  notify: 'data_breach.notify',
  membersTold: 'data_breach.members_told',
  close: 'data_breach.close',
};

type StepFacts = Pick<DataBreach, 'status' | 'dpcNotifiedAt' | 'membersToldAt' | 'riskToPeople'>;

/**
 * The steps a breach offers to someone whose permissions `may` reads: none once closed; the
 * notification to the Commission and the people told, each once; and closing once the Commission
 * is told, or straight away for a breach unlikely to risk people, as the service allows.
 */
export function breachSteps(breach: StepFacts, may: (action: Action) => boolean): BreachStep[] {
  if (breach.status === 'closed') return [];
  const open: Record<BreachStep, boolean> = {
    notify: breach.dpcNotifiedAt === null,
    membersTold: breach.membersToldAt === null,
    close: breach.dpcNotifiedAt !== null || !dpcNotifiable(breach.riskToPeople),
  };
  return (Object.keys(open) as BreachStep[]).filter(
    (step) => open[step] && may(STEP_ACTIONS[step]),
  );
}

/** What a person is told when the time of day cannot be read. */
export const TIME_FORMAT_MESSAGE =
  'Enter the time on the 24-hour clock, as HH:MM, for example 14:05';
/** The hour the clocks skip when Irish summer time begins. */
export const NO_SUCH_TIME_MESSAGE =
  'The clocks in Ireland skip that hour on that day: enter the time as the clock read it';

/**
 * An instant typed as a day (the date field's value, see IrishDateInput) and a time `HH:MM` in
 * Ireland, as the ISO instant the API takes, or '' when either is missing or cannot be read, for
 * the API's own rule to refuse under the date's field.
 */
export function instantOf(day: string, time: string): string {
  return isIsoDate(day) ? (instantInIreland(day, time.trim()) ?? '') : '';
}

/**
 * The errors of a day and time pair: the day under its field (required, readable day first), the
 * time under its own (required, HH:MM, a time the clock reads that day).
 */
export function momentErrors(
  values: Record<string, unknown>,
  dayField: string,
  timeField: string,
): FormErrors {
  const day = String(values[dayField] ?? '');
  const time = String(values[timeField] ?? '').trim();
  const errors: FormErrors = {};
  const dayProblem = day === '' ? FIELD_MESSAGES.required : dateEntryProblem(day);
  if (dayProblem) errors[dayField] = dayProblem;
  if (time === '') errors[timeField] = FIELD_MESSAGES.required;
  else if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) errors[timeField] = TIME_FORMAT_MESSAGE;
  else if (!dayProblem && instantOf(day, time) === '') errors[timeField] = NO_SUCH_TIME_MESSAGE;
  return errors;
}
