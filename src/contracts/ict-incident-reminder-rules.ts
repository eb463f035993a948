import type { Deadline, DeadlineKind } from './dora-rules.js';
import { productPolicy, type RuleSource } from './rule-sources.js';

/**
 * When the firm's administrators and the trustees of the schemes an incident reached are reminded
 * by e-mail of a major ICT incident's report coming due (docs/decisions/0139-dora-ict-incidents.md,
 * "Reminders"). Pure functions of a deadline and the instant now; the reminders job asks this
 * module and nothing else decides a stage.
 */

/** Deadlines counted in hours (RTS (EU) 2025/301 Art. 5: 4 or 24 hours; 24 after recovery). */
const SHORT_CLOCKS: readonly DeadlineKind[] = ['initial', 'intermediate_update'];

/** A short clock is reminded of when this many minutes are left: 2 hours, then 30 minutes. */
export const SHORT_CLOCK_REMINDER_MINUTES = [120, 30] as const;
/** Every other report (72 hours, a month) is reminded of once, a day before. */
export const LONG_CLOCK_REMINDER_MINUTES = 24 * 60;

export const ICT_INCIDENT_REMINDER_RULES = {
  stages: productPolicy(
    'A major ICT incident’s initial notification and its updated intermediate report after recovery are reminded of 2 hours and 30 minutes before they are due; the intermediate, final and reclassification reports 24 hours before; each once for each due instant',
  ),
  recipients: productPolicy(
    'Reminders go to the firm’s active BrokerAdmins, who record that a report was sent, and to the serving trustees with an e-mail address of the schemes the incident reached, who answer for the reports; the e-mail names the report and its deadline, never the incident’s title or description',
  ),
  overdue: productPolicy(
    'A report not recorded by its deadline is reminded of once more, as overdue, on the first run after the deadline passes: the Authority is still owed it',
  ),
  latestStageOnly: productPolicy(
    'A run sends only the stage a deadline has reached, never the earlier ones it slept through',
  ),
} as const satisfies Record<string, RuleSource>;

export const ICT_INCIDENT_REMINDER_STAGES = [
  'hours_24',
  'hours_2',
  'minutes_30',
  'overdue',
] as const;
export type IctIncidentReminderStage = (typeof ICT_INCIDENT_REMINDER_STAGES)[number];

const MINUTE_MS = 60_000;

/**
 * The reminder a deadline has reached at `now`: none when it is met, withdrawn or waiting on an
 * earlier report; `overdue` once it has passed unmet; while it is still due, for a short clock
 * `hours_2` once 2 hours or fewer are left and `minutes_30` once 30 minutes or fewer, and for the
 * others `hours_24` once a day or less is left.
 */
export function ictIncidentReminderStage(
  deadline: Deadline,
  now: Date,
): IctIncidentReminderStage | null {
  if (deadline.dueAt === null) return null;
  if (deadline.status === 'overdue') return 'overdue';
  if (deadline.status !== 'due') return null;
  const left = deadline.dueAt.getTime() - now.getTime();
  if (left <= 0) return 'overdue';
  if (SHORT_CLOCKS.includes(deadline.kind)) {
    const [twoHours, halfHour] = SHORT_CLOCK_REMINDER_MINUTES;
    if (left <= halfHour * MINUTE_MS) return 'minutes_30';
    if (left <= twoHours * MINUTE_MS) return 'hours_2';
    return null;
  }
  return left <= LONG_CLOCK_REMINDER_MINUTES * MINUTE_MS ? 'hours_24' : null;
}
