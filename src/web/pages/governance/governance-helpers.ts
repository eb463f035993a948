import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';
import {
  addYears,
  calendarPosition,
  KEY_FUNCTION_NAMES,
  type KeyFunction,
  OBLIGATION_NAMES,
  POLICY_KIND_NAMES,
  type PolicyKind,
} from '../../../contracts/governance-rules';
import {
  FILING_LOOK_BACK_PERIODS,
  type FilingKind,
  trackedPeriodEnd,
  yearEndIn,
} from '../../../contracts/scheme-year-rules';
import type { CalendarEntry, ComplianceStatus, Obligation } from '../../api/types';
import { irishDateRule } from '../../components/IrishDateInput';
import { validateWith } from '../../components/validation';
import { formatDate, formatOptionalDate } from '../../format';

/**
 * How the governance pages show the rule module's values. Their words are the rule module's
 * (contracts/governance-rules.ts), shared with the evidence pack's summary; the colours are the
 * pages' own. Each map is keyed by the module's own type, so a value added there fails the build
 * here until it has its colour.
 */

export const STATUS_COLOURS: Record<ComplianceStatus, string> = {
  ok: 'green',
  due_soon: 'yellow',
  overdue: 'red',
  incomplete: 'orange',
};

/** A date of the API (`YYYY-MM-DD`) as the web shows dates, or a dash when there is none. */
export function shownDate(isoDate: string | null | undefined): string {
  return formatOptionalDate(isoDate);
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

/** A key function holder as the registers name them: the person, then the function held. */
export function holderNameOf(holder: { holderName: string; function: KeyFunction }): string {
  return `${holder.holderName} (${KEY_FUNCTION_NAMES[holder.function]})`;
}

/** The register entries an obligation may be about, as far as they have been read. */
export interface ObligationSubjects {
  trustees?: readonly { id: string; name: string }[];
  holders?: readonly { id: string; holderName: string; function: KeyFunction }[];
  policies?: readonly { id: string; kind: PolicyKind }[];
}

/**
 * Whose duty an obligation is, by the id it names, where the duty is one of several of its kind: a
 * trustee's name for their training or their fitness and probity, a key function holder's for
 * theirs, a policy's kind for its review. Undefined when it names no one, or the entry is not
 * (yet) read.
 */
export function subjectNameOf(
  obligation: Pick<Obligation, 'kind' | 'subjectId'>,
  { trustees = [], holders = [], policies = [] }: ObligationSubjects,
): string | undefined {
  const id = obligation.subjectId;
  if (id === undefined) return undefined;
  const trustee = () => trustees.find((entry) => entry.id === id)?.name;
  const holder = () => {
    const found = holders.find((entry) => entry.id === id);
    return found ? holderNameOf(found) : undefined;
  };
  switch (obligation.kind) {
    case 'trustee_training':
      return trustee();
    // Art. 22 asks it of trustees and key function holders alike: the id is one or the other.
    case 'fitness_and_probity':
      return trustee() ?? holder();
    case 'key_function':
    case 'key_function_notification':
    case 'conflicts_protocol':
      return holder();
    case 'written_policy': {
      const policy = policies.find((entry) => entry.id === id);
      return policy ? POLICY_KIND_NAMES[policy.kind] : undefined;
    }
    default:
      return undefined;
  }
}

/** What an obligation is, in words: the duty, and whose it is where the duty is one of several. */
export function obligationInWords(
  obligation: Pick<Obligation, 'kind'>,
  subject: string | undefined,
): string {
  const name = OBLIGATION_NAMES[obligation.kind];
  return subject === undefined ? name : `${name}: ${subject}`;
}

/** An obligation that falls due on a day: the scheme year's timeline holds only these. */
export type DatedObligation = Obligation & { dueOn: string };

/**
 * The scheme year's timeline: every obligation with a due date, soonest first; those due the
 * same day keep the compliance view's order.
 */
export function timelineOf(obligations: readonly Obligation[]): DatedObligation[] {
  return obligations
    .filter((obligation): obligation is DatedObligation => obligation.dueOn !== undefined)
    .map((obligation, index) => ({ obligation, index }))
    .sort((a, b) => a.obligation.dueOn.localeCompare(b.obligation.dueOn) || a.index - b.index)
    .map(({ obligation }) => obligation);
}

/**
 * The periods a filing of `kind` may be recorded for on `today`, latest first: the one the rule
 * module chases (trackedPeriodEnd) and the `count - 1` before it, each ending on the day a period
 * of its kind ends: by default every period the rule module may chase (FILING_LOOK_BACK_PERIODS),
 * so each one chased can be recorded.
 */
export function filingPeriodChoices(
  kind: FilingKind,
  yearEnd: string,
  today: string,
  count = FILING_LOOK_BACK_PERIODS,
): string[] {
  const latest = trackedPeriodEnd(kind, yearEnd, today);
  const year = Number(latest.slice(0, 4));
  return Array.from({ length: count }, (_, back) => yearEndIn(latest.slice(5), year - back));
}

/** The period a filing covers, in words: a calendar year, or the scheme year ended on a day. */
export function filingPeriodInWords(kind: FilingKind, periodEnd: string): string {
  return kind === 'annual_compliance_statement'
    ? `Calendar year ${periodEnd.slice(0, 4)}`
    : `Year ended ${formatDate(periodEnd)}`;
}
