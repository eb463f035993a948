import { counted } from './plain-english.js';
import { law, productPolicy, type RuleSource } from './rule-sources.js';

/**
 * Personal-data breaches (docs/decisions/0138-personal-data-breaches.md): when the Data Protection
 * Commission must be told, when the people affected must be, and what a breach's clock reads.
 * Pure functions of the breach and "now", tested against worked instants
 * (test/data-breaches/data-breach-rules.test.ts).
 */

/** The Commission is told within this many hours of the controller becoming aware (Art. 33(1)). */
export const DPC_NOTIFICATION_HOURS = 72;

const HOUR_MS = 60 * 60_000;

/** Where each rule comes from: the GDPR to its article, or this service's reading of it. */
export const DATA_BREACH_RULES = {
  notifyWithin72Hours: law(
    'GDPR Art. 33(1): notified to the supervisory authority without undue delay and, where feasible, not later than 72 hours after becoming aware of it, unless unlikely to result in a risk to the rights and freedoms of natural persons',
  ),
  reasonsForDelay: law(
    'GDPR Art. 33(1): a notification not made within 72 hours is accompanied by the reasons for the delay',
  ),
  documentEveryBreach: law(
    'GDPR Art. 33(5): every personal data breach is documented, its facts, effects and the remedial action taken, whether notified or not',
  ),
  tellThePeople: law(
    'GDPR Art. 34(1): where a breach is likely to result in a high risk to the rights and freedoms of natural persons, they are told without undue delay',
  ),
  exactInstant: productPolicy(
    'The 72 hours are counted as hours from the instant the firm became aware, weekends and public holidays included: no working days are added',
  ),
  awarenessFixed: productPolicy(
    'The instant the firm became aware is recorded once and not edited afterwards, so the deadline it sets does not move',
  ),
} as const satisfies Record<string, RuleSource>;

export const RISKS_TO_PEOPLE = ['unlikely', 'risk', 'high'] as const;
export type RiskToPeople = (typeof RISKS_TO_PEOPLE)[number];

export const RISK_TO_PEOPLE_LABELS: Record<RiskToPeople, string> = {
  unlikely: 'Unlikely to result in a risk to people',
  risk: 'A risk to people',
  high: 'A high risk to people',
};

export const BREACH_STATUSES = ['open', 'notified', 'closed'] as const;
export type BreachStatus = (typeof BREACH_STATUSES)[number];

export const BREACH_STATUS_LABELS: Record<BreachStatus, string> = {
  open: 'Open',
  notified: 'Commission notified',
  closed: 'Closed',
};

export const DATA_CATEGORIES = [
  'identity',
  'contact',
  'pps_number',
  'financial',
  'health',
  'employment',
  'other',
] as const;
export type DataCategory = (typeof DATA_CATEGORIES)[number];

export const DATA_CATEGORY_LABELS: Record<DataCategory, string> = {
  identity: 'Identity (names, dates of birth)',
  contact: 'Contact details',
  pps_number: 'PPS numbers',
  financial: 'Financial (salaries, contributions, bank details)',
  health: 'Health',
  employment: 'Employment',
  other: 'Other',
};

/** The instant the Commission must be told by: becoming aware plus exactly 72 hours. */
export function dpcDeadline(becameAwareAt: Date): Date {
  return new Date(becameAwareAt.getTime() + DPC_NOTIFICATION_HOURS * HOUR_MS);
}

/** Whether the Commission is to be told: unless the breach is unlikely to risk people (Art. 33(1)). */
export const dpcNotifiable = (risk: RiskToPeople): boolean => risk !== 'unlikely';

/** Whether the people affected are to be told: when the risk to them is high (Art. 34(1)). */
export const membersToBeTold = (risk: RiskToPeople): boolean => risk === 'high';

/** Whether a notification at `notifiedAt` must give the reasons for its delay (Art. 33(1)). */
export const needsDelayReason = (becameAwareAt: Date, notifiedAt: Date): boolean =>
  notifiedAt.getTime() > dpcDeadline(becameAwareAt).getTime();

/**
 * The clock of a breach: `running` while the Commission is still to be told, measured to now;
 * once told, measured to the notification. `hoursLeft` and `hoursOverdue` are whole hours, rounded
 * down, and 0 on the side that does not apply; a breach not to be notified has no clock running.
 */
export interface BreachClock {
  running: boolean;
  hoursLeft: number;
  overdue: boolean;
  hoursOverdue: number;
}

export interface BreachClockFacts {
  becameAwareAt: Date;
  riskToPeople: RiskToPeople;
  dpcNotifiedAt: Date | null;
}

export function breachClock(breach: BreachClockFacts, now: Date): BreachClock {
  const notifiable = dpcNotifiable(breach.riskToPeople);
  if (!notifiable && breach.dpcNotifiedAt === null) {
    return { running: false, hoursLeft: 0, overdue: false, hoursOverdue: 0 };
  }
  const to = breach.dpcNotifiedAt ?? now;
  const left = dpcDeadline(breach.becameAwareAt).getTime() - to.getTime();
  const overdue = left < 0;
  return {
    running: breach.dpcNotifiedAt === null,
    hoursLeft: overdue ? 0 : Math.floor(left / HOUR_MS),
    overdue,
    hoursOverdue: overdue ? Math.floor(-left / HOUR_MS) : 0,
  };
}

/** A breach's clock in words, for the register and the home page: never a colour alone. */
export function clockInWords(clock: BreachClock, notified: boolean): string {
  if (!clock.running && !notified) {
    return 'No notification to the Commission needed: unlikely to result in a risk to people';
  }
  const hours = (count: number) => (count === 0 ? 'less than an hour' : counted(count, 'hour'));
  if (clock.running) {
    return clock.overdue
      ? `Overdue by ${hours(clock.hoursOverdue)}: the Commission was to be told within 72 hours`
      : `${clock.hoursLeft === 0 ? 'Less than an hour' : counted(clock.hoursLeft, 'hour')} left to notify the Data Protection Commission`;
  }
  return clock.overdue
    ? `The Commission was notified ${hours(clock.hoursOverdue)} after the deadline`
    : 'The Commission was notified within 72 hours';
}
