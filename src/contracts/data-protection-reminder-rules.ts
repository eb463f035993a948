import { dpcDeadline, dpcNotifiable, type RiskToPeople } from './data-breach-rules.js';
import { type DataRequestStatus, isClosed } from './data-request-rules.js';
import { daysBetween } from './governance-rules.js';
import { productPolicy, type RuleSource } from './rule-sources.js';

/**
 * When the firm's administrators are reminded by e-mail of a data-subject request still to be
 * answered and of a personal-data breach the Data Protection Commission is still to be told of
 * (docs/decisions/0147-data-protection-reminders.md). Pure functions of the record and the day or
 * instant now; the reminders job asks this module and nothing else decides a stage
 * (test/gdpr/data-protection-reminder-rules.test.ts).
 */

/** A request is reminded of this many days before its due day, then once it is overdue. */
export const REQUEST_REMINDER_DAYS_BEFORE = [7, 2] as const;
/** A breach is reminded of when this many hours are left to the Commission's deadline. */
export const BREACH_REMINDER_HOURS_BEFORE = [48, 12] as const;

export const DATA_PROTECTION_REMINDER_RULES = {
  requestStages: productPolicy(
    'A data-subject request still to be answered is reminded of 7 days and 2 days before its due day and on the first day it is overdue, each once for each due day (an extension sets a new one)',
  ),
  breachStages: productPolicy(
    'A breach the Commission is to be told of is reminded of when 48 hours and 12 hours are left of its 72, and once the 72 hours have passed, each once, until the notification is recorded or the breach is closed',
  ),
  recipients: productPolicy(
    'Reminders go to the firm’s active BrokerAdmins, who are reminded of the governance dates too; the e-mail names the kind of request or the breach’s deadline and links to the register, never the member',
  ),
  latestStageOnly: productPolicy(
    'A run sends only the stage the record has reached, never the earlier ones it slept through',
  ),
} as const satisfies Record<string, RuleSource>;

export type RequestReminderStage = 'before_7' | 'before_2' | 'overdue';
export type BreachReminderStage = 'hours_48' | 'hours_12' | 'overdue';

/**
 * The reminder a request has reached on `today`: none while more than 7 days are left or once it
 * is closed; `before_7` from 7 days before, `before_2` from 2 days before (the due day itself
 * included), `overdue` from the day after its due day.
 */
export function requestReminderStage(
  request: { status: DataRequestStatus; dueOn: string },
  today: string,
): RequestReminderStage | null {
  if (isClosed(request.status)) return null;
  const left = daysBetween(today, request.dueOn);
  if (left < 0) return 'overdue';
  const [week, days] = REQUEST_REMINDER_DAYS_BEFORE;
  if (left <= days) return 'before_2';
  if (left <= week) return 'before_7';
  return null;
}

const HOUR_MS = 60 * 60_000;

/**
 * The reminder a breach has reached at `now`: none unless it is still open (the Commission not
 * told, the breach not closed) and notifiable; `hours_48` once 48 hours or fewer are left,
 * `hours_12` once 12 or fewer, `overdue` once the deadline has passed.
 */
export function breachReminderStage(
  breach: {
    status: 'open' | 'notified' | 'closed';
    riskToPeople: RiskToPeople;
    becameAwareAt: Date;
  },
  now: Date,
): BreachReminderStage | null {
  if (breach.status !== 'open' || !dpcNotifiable(breach.riskToPeople)) return null;
  const left = dpcDeadline(breach.becameAwareAt).getTime() - now.getTime();
  if (left <= 0) return 'overdue';
  const [twoDays, halfDay] = BREACH_REMINDER_HOURS_BEFORE;
  if (left <= halfDay * HOUR_MS) return 'hours_12';
  if (left <= twoDays * HOUR_MS) return 'hours_48';
  return null;
}
