import { daysBetween } from './governance-rules.js';
import { dateInWords } from './irish-dates.js';
import { law, productPolicy, type RuleSource } from './rule-sources.js';
import { sameDayMonthsLater } from './scheme-year-rules.js';

/**
 * The data-subject requests register (docs/decisions/0137-data-subject-requests.md): a member's
 * request to see, correct, erase or restrict their data, or objecting to its use, is answered
 * within one month of its receipt, extendable by two further months for a complex or numerous
 * request if the person is told so within the first month (GDPR Art. 12(3)). Every figure and
 * every reading of the law lives here; the service and the page both ask this module. Pure
 * functions of the dates and "today" (test/gdpr/data-request-rules.test.ts).
 */

export const DATA_REQUEST_KINDS = [
  'access',
  'rectification',
  'erasure',
  'restriction',
  'objection',
] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

/** Each kind in words, with the article that gives the right. */
export const DATA_REQUEST_KIND_NAMES: Record<DataRequestKind, string> = {
  access: 'Access (Art. 15)',
  rectification: 'Correction (Art. 16)',
  erasure: 'Erasure (Art. 17)',
  restriction: 'Restriction (Art. 18)',
  objection: 'Objection (Art. 21)',
};

/**
 * Each right in plain words, as the member portal offers it to the member themselves
 * (GDPR Arts 15 to 18 and 21).
 */
export const DATA_REQUEST_KIND_RIGHTS: Record<DataRequestKind, string> = {
  access: 'Access: ask for a copy of the data the scheme holds about you, and how it is used',
  rectification: 'Correction: ask for data about you that is wrong or incomplete to be put right',
  erasure: 'Erasure: ask for data about you to be deleted where the law no longer needs it kept',
  restriction:
    'Restriction: ask for data about you to be kept but not used while a question about it is settled',
  objection:
    'Objection: object to a use of data about you that rests on the firm’s or the scheme’s legitimate interests',
};

export const DATA_REQUEST_STATUSES = ['open', 'extended', 'completed', 'refused'] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];

export const DATA_REQUEST_STATUS_NAMES: Record<DataRequestStatus, string> = {
  open: 'Open',
  extended: 'Extended',
  completed: 'Completed',
  refused: 'Refused',
};

/** A request completed or refused is closed: nothing more is done to it. */
export const isClosed = (status: DataRequestStatus): boolean =>
  status === 'completed' || status === 'refused';

/** Answered within this many months of receipt (Art. 12(3)). */
export const ANSWER_WITHIN_MONTHS = 1;
/** And, extended, within this many more (Art. 12(3)). */
export const EXTENSION_MONTHS = 2;

/** Where each rule comes from: the law to its article, or this service's reading of it. */
export const DATA_REQUEST_RULES = {
  answerWithin: law('GDPR Art. 12(3)'),
  extension: law('GDPR Art. 12(3)'),
  monthCounted: law('Regulation (EEC, Euratom) No 1182/71 Art. 3(2)(c)'),
  extendedFromDueDay: productPolicy(
    'An extension runs two months from the day the first month ends, not from the day the request was received: the shorter reading where a month has fewer days',
  ),
  receivedOn: productPolicy(
    'A request is recorded as received on a day not after today and not before the member joined the scheme: it is about the data the scheme holds on them',
  ),
  oneExtension: productPolicy(
    'A request is extended once, on or before the day its first month ends, and the reason given is what the person was told',
  ),
  memberReceivedToday: productPolicy(
    'A request a member makes themselves in the portal is received the day they make it, in Ireland: they cannot date it earlier or later',
  ),
  oneOpenOfAKind: productPolicy(
    'A member making their own request cannot make a second of a kind while one is still with the firm: the first one’s due day stands',
  ),
  refusal: law('GDPR Art. 12(5), Art. 17(3)(b) and Art. 17(3)(e)'),
} as const satisfies Record<string, RuleSource>;

/**
 * The grounds a request may be refused on, each its citation as the register keeps it and its
 * meaning in words. A refusal names one of these and nothing else.
 */
export const REFUSAL_CITATIONS = [
  'GDPR Art. 17(3)(b)',
  'GDPR Art. 17(3)(e)',
  'GDPR Art. 12(5)',
] as const;
export type RefusalCitation = (typeof REFUSAL_CITATIONS)[number];

export const REFUSAL_CITATION_NAMES: Record<RefusalCitation, string> = {
  'GDPR Art. 17(3)(b)': 'GDPR Art. 17(3)(b): a legal obligation requires the data to be kept',
  'GDPR Art. 17(3)(e)': 'GDPR Art. 17(3)(e): the data is needed for legal claims',
  'GDPR Art. 12(5)': 'GDPR Art. 12(5): the request is manifestly unfounded or excessive',
};

/** The day a request received on `receivedOn` is to be answered by: one month on (Art. 12(3)). */
export function dueOnFor(receivedOn: string): string {
  return sameDayMonthsLater(receivedOn, ANSWER_WITHIN_MONTHS);
}

/** The day an extended request is to be answered by: two months after its first due day. */
export function extendedDueOn(originalDueOn: string): string {
  return sameDayMonthsLater(originalDueOn, EXTENSION_MONTHS);
}

/** Why a request cannot be extended on `today`, or null when it can. */
export function extensionRefusal(
  request: { status: DataRequestStatus; originalDueOn: string },
  today: string,
): 'closed' | 'already_extended' | 'first_month_over' | null {
  if (isClosed(request.status)) return 'closed';
  if (request.status === 'extended') return 'already_extended';
  if (today > request.originalDueOn) return 'first_month_over';
  return null;
}

/**
 * Why a day a member gave for their own request cannot be its day of receipt, or null when it
 * can: theirs is received today (`DATA_REQUEST_RULES.memberReceivedToday`), so only today's day,
 * or none, is taken.
 */
export function memberReceivedOnRefusal(
  receivedOn: string | undefined,
  today: string,
): 'not_today' | null {
  return receivedOn === undefined || receivedOn === today ? null : 'not_today';
}

/** Why `receivedOn` cannot be a request's day of receipt, or null when it can. */
export function receivedOnRefusal(
  receivedOn: string,
  today: string,
  memberJoinedOn: string,
): 'date_in_future' | 'before_member_joined' | null {
  if (receivedOn > today) return 'date_in_future';
  if (receivedOn < memberJoinedOn) return 'before_member_joined';
  return null;
}

export const DATA_REQUEST_CLOCKS = [
  'due',
  'due_today',
  'overdue',
  'answered',
  'answered_late',
] as const;
export type DataRequestClockState = (typeof DATA_REQUEST_CLOCKS)[number];

export interface DataRequestClock {
  state: DataRequestClockState;
  /** Days left to the due day while the request is open; negative once overdue; null closed. */
  daysLeft: number | null;
  /** The clock in words: a colour on a page never stands alone. */
  words: string;
}

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/**
 * Where a request stands against its due day: days left while open, overdue from the day after
 * the due day, and once closed whether it was answered by then.
 */
export function dataRequestClock(
  request: { status: DataRequestStatus; dueOn: string; closedOn: string | null },
  today: string,
): DataRequestClock {
  if (isClosed(request.status) && request.closedOn !== null) {
    const late = daysBetween(request.dueOn, request.closedOn);
    return late > 0
      ? {
          state: 'answered_late',
          daysLeft: null,
          words: `Answered ${days(late)} after its due date`,
        }
      : { state: 'answered', daysLeft: null, words: 'Answered in time' };
  }
  const left = daysBetween(today, request.dueOn);
  if (left < 0) {
    return {
      state: 'overdue',
      daysLeft: left,
      words: `Overdue by ${days(-left)}: it was due on ${dateInWords(request.dueOn)}`,
    };
  }
  if (left === 0) return { state: 'due_today', daysLeft: 0, words: 'Due today' };
  return {
    state: 'due',
    daysLeft: left,
    words: `${days(left)} left: due on ${dateInWords(request.dueOn)}`,
  };
}
