import { governanceApplies } from './governance-rules.js';
import { addDays, IRISH_TIME_ZONE, instantInIreland, todayInIreland } from './irish-dates.js';
import type { RacKind, SchemeType } from './organisation.js';
import { counted } from './plain-english.js';
import { law, productPolicy, type RuleSource } from './rule-sources.js';

/**
 * DORA for an IORP (docs/decisions/0139-dora-ict-incidents.md): whether it applies, when an ICT
 * incident is major, and when each report of a major incident is due. Pure functions of the facts
 * and "now", worked to the minute in test/dora/dora-rules.test.ts.
 */

const HOUR_MS = 60 * 60_000;

/** An IORP whose schemes together have this many members or fewer is out of scope (Art. 2(3)(c)). */
export const DORA_MEMBER_THRESHOLD = 15;

/** The initial notification: hours after classification as major (RTS (EU) 2025/301 Art. 5). */
export const INITIAL_HOURS_AFTER_CLASSIFICATION = 4;
/** ... and no later than this many hours after becoming aware of the incident (same article). */
export const INITIAL_HOURS_AFTER_AWARENESS = 24;
/** The intermediate report: hours after the initial notification (same article). */
export const INTERMEDIATE_HOURS_AFTER_INITIAL = 72;
/** The updated intermediate report, once regular activities are recovered: this service's reading of "without undue delay". */
export const UPDATE_HOURS_AFTER_RECOVERY = 24;
/** A deadline on a day that is not a working day moves to this time of the next working day. */
export const NEXT_WORKING_DAY_TIME = '12:00';

/** Thresholds of RTS (EU) 2024/1772 Art. 9, as figures. */
export const CLIENTS_AFFECTED_PERCENT = 10;
export const CLIENTS_AFFECTED_COUNT = 100_000;
export const DURATION_HOURS = 24;
export const DOWNTIME_HOURS = 2;
export const MEMBER_STATES_AFFECTED = 2;
export const ECONOMIC_IMPACT_CENTS = 10_000_000;
/** Recurring incidents with one apparent root cause are taken together within this many months. */
export const RECURRENCE_MONTHS = 6;

/** Where each rule comes from. */
export const DORA_RULES = {
  scope: law(
    'Regulation (EU) 2022/2554 (DORA) Art. 2(3)(c): it does not apply to IORPs which operate pension schemes which together do not have more than 15 members in total',
  ),
  simplifiedFramework: law(
    'Regulation (EU) 2022/2554 (DORA) Art. 16: small and non-interconnected entities apply the simplified ICT risk management framework',
  ),
  majorIncident: law(
    'RTS (EU) 2024/1772 Art. 8(1): an ICT-related incident is major where it has affected critical services and either any malicious unauthorised access to network and information systems which may result in data losses, or two or more other classification thresholds are met',
  ),
  recurringIncidents: law(
    'RTS (EU) 2024/1772 Art. 8(2): recurring incidents that are not major alone, with the same apparent root cause, occurring at least twice within 6 months, are classified together as one major incident where together they meet the criteria',
  ),
  clientsThreshold: law(
    'RTS (EU) 2024/1772 Art. 9(1): the clients criterion is met where more than 10% of the clients using the affected service, or more than 100,000 of them, are affected, or clients identified as relevant are affected (Art. 1)',
  ),
  reputationalThreshold: law(
    'RTS (EU) 2024/1772 Art. 9(2): the reputational impact criterion is met where the incident has drawn media attention, repeated complaints, shown that regulatory requirements are not met, or is likely to lose clients (Art. 2)',
  ),
  durationThreshold: law(
    'RTS (EU) 2024/1772 Art. 9(3): the duration criterion is met where the incident lasts longer than 24 hours, or the downtime of services supporting critical or important functions exceeds 2 hours (Art. 3)',
  ),
  geographicalThreshold: law(
    'RTS (EU) 2024/1772 Art. 9(4): the geographical spread criterion is met where the incident has an impact in two or more Member States (Art. 4)',
  ),
  dataLossThreshold: law(
    'RTS (EU) 2024/1772 Art. 9(5): the data losses criterion is met by any impact on the availability, authenticity, integrity or confidentiality of data that harms the entity’s business objectives or its compliance with regulatory requirements (Art. 5)',
  ),
  criticalServices: law(
    'RTS (EU) 2024/1772 Art. 6: critical services are affected where the incident affects ICT services supporting critical or important functions, or involves successful, malicious and unauthorised access to network and information systems',
  ),
  economicThreshold: law(
    'RTS (EU) 2024/1772 Art. 9(6): the economic impact criterion is met where the costs and losses exceed or are likely to exceed EUR 100,000 (Art. 7)',
  ),
  initialNotification: law(
    'RTS (EU) 2025/301 Art. 5: the initial notification within 4 hours of classification as major and no later than 24 hours after becoming aware of the incident',
  ),
  intermediateReport: law(
    'RTS (EU) 2025/301 Art. 5: the intermediate report within 72 hours of the initial notification, and an updated one when regular activities have been recovered',
  ),
  finalReport: law(
    'RTS (EU) 2025/301 Art. 5: the final report within 1 month of the latest updated intermediate report',
  ),
  notWorkingDay: law(
    'RTS (EU) 2025/301 Art. 5: a time limit falling on a weekend or a public holiday of the Member State moves to 12:00 noon of the next working day',
  ),
  irishPublicHolidays: law(
    'Organisation of Working Time Act 1997 Sch. 2 as amended: 1 January, St Brigid’s Day (the first Monday in February, or 1 February when that is a Friday), 17 March, Easter Monday, the first Mondays of May, June and August, the last Monday of October, 25 and 26 December',
  ),
  schemeIsTheIorp: productPolicy(
    'Each scheme is taken as its own IORP, its active and deferred members counted: the service records no trust that operates several schemes',
  ),
  dublinTime: productPolicy(
    'Days and noon are read on a clock in Dublin, summer time included; a public holiday on a weekend is the weekend day itself, not the day given in lieu',
  ),
  updateAfterRecovery: productPolicy(
    'The updated intermediate report, due without undue delay once regular activities are recovered, is asked for within 24 hours of the recovery being recorded',
  ),
  reclassifiedReport: productPolicy(
    'An incident reclassified as not major after its initial notification has a reclassification report due when the next report would have been; the reports still outstanding are no longer due',
  ),
  template: law(
    'ITS (EU) 2025/302 Art. 1 and Annex I: the initial notification, intermediate and final reports are made in the common template',
  ),
} as const satisfies Record<string, RuleSource>;

/** Whether DORA applies to an IORP with this many members across its schemes (Art. 2(3)(c)). */
export const doraApplies = (membersAcrossSchemes: number): boolean =>
  membersAcrossSchemes > DORA_MEMBER_THRESHOLD;

/** Whether DORA applies to a scheme, and why, with the rule's source. */
export interface DoraScope {
  applies: boolean;
  members: number;
  reason: string;
  label: RuleSource['label'];
  citation: string;
}

/**
 * A scheme's DORA scope: a PRSA or a contract RAC is no IORP; an IORP is in scope with more than
 * 15 members, active and deferred, each scheme taken as its own IORP (DORA_RULES.schemeIsTheIorp).
 */
export function doraScope(
  scheme: { type: SchemeType; racKind: RacKind | null },
  members: number,
): DoraScope {
  if (!governanceApplies(scheme)) {
    const { label, citation } = DORA_RULES.scope;
    return {
      applies: false,
      members,
      reason: 'DORA does not apply: this arrangement is a contract with its provider, not an IORP',
      label,
      citation,
    };
  }
  const applies = doraApplies(members);
  const { label, citation } = DORA_RULES.scope;
  return {
    applies,
    members,
    reason: applies
      ? `DORA applies: the scheme has ${counted(members, 'member')}, more than ${DORA_MEMBER_THRESHOLD}`
      : `DORA does not apply: the scheme has ${counted(members, 'member')}, ${DORA_MEMBER_THRESHOLD} or fewer`,
    label,
    citation,
  };
}

// Classification ---------------------------------------------------------------------------------

/** The criteria of RTS (EU) 2024/1772 other than critical services, each met or not. */
export const CLASSIFICATION_CRITERIA = [
  'clients',
  'reputational',
  'duration',
  'geographical',
  'dataLosses',
  'economic',
] as const;
export type ClassificationCriterion = (typeof CLASSIFICATION_CRITERIA)[number];

export const CRITERION_LABELS: Record<ClassificationCriterion, string> = {
  clients: 'Members and counterparts affected',
  reputational: 'Reputational impact',
  duration: 'Duration and service downtime',
  geographical: 'Geographical spread',
  dataLosses: 'Data losses or malicious access',
  economic: 'Economic impact',
};

export const CRITERION_SOURCES: Record<ClassificationCriterion, RuleSource> = {
  clients: DORA_RULES.clientsThreshold,
  reputational: DORA_RULES.reputationalThreshold,
  duration: DORA_RULES.durationThreshold,
  geographical: DORA_RULES.geographicalThreshold,
  dataLosses: DORA_RULES.dataLossThreshold,
  economic: DORA_RULES.economicThreshold,
};

/** The facts a classification weighs, as the guided form asks them. */
export interface ClassificationFacts {
  criticalServicesAffected: boolean;
  membersAffected: number;
  membersOfService: number;
  relevantMembersAffected: boolean;
  reputationalImpact: boolean;
  durationHours: number;
  downtimeHours: number;
  memberStatesAffected: number;
  dataLosses: boolean;
  economicImpactCents: number;
}

/** Which thresholds of RTS (EU) 2024/1772 Art. 9 the facts meet. */
export function thresholdsMet(facts: ClassificationFacts): ClassificationCriterion[] {
  const met: Record<ClassificationCriterion, boolean> = {
    clients:
      facts.relevantMembersAffected ||
      facts.membersAffected > CLIENTS_AFFECTED_COUNT ||
      (facts.membersOfService > 0 &&
        facts.membersAffected * 100 > facts.membersOfService * CLIENTS_AFFECTED_PERCENT),
    reputational: facts.reputationalImpact,
    duration: facts.durationHours > DURATION_HOURS || facts.downtimeHours > DOWNTIME_HOURS,
    geographical: facts.memberStatesAffected >= MEMBER_STATES_AFFECTED,
    dataLosses: facts.dataLosses,
    economic: facts.economicImpactCents > ECONOMIC_IMPACT_CENTS,
  };
  return CLASSIFICATION_CRITERIA.filter((criterion) => met[criterion]);
}

/**
 * Major (RTS (EU) 2024/1772 Art. 8(1)): critical services affected, and either the data-loss
 * threshold or two or more of the others met.
 */
export function isMajor(facts: ClassificationFacts): boolean {
  if (!facts.criticalServicesAffected) return false;
  const met = thresholdsMet(facts);
  return met.includes('dataLosses') || met.filter((c) => c !== 'dataLosses').length >= 2;
}

/** Why the facts make an incident major or not, in one sentence. */
export function classificationInWords(facts: ClassificationFacts): string {
  const met = thresholdsMet(facts);
  const names = met.map((criterion) => CRITERION_LABELS[criterion].toLowerCase());
  const listed = names.length === 0 ? 'no threshold is met' : `met: ${names.join(', ')}`;
  if (!facts.criticalServicesAffected) {
    return `Not major: no critical service is affected (${listed})`;
  }
  return isMajor(facts)
    ? `Major: critical services are affected and ${met.includes('dataLosses') ? 'the data-loss threshold is met' : 'two or more thresholds are met'} (${listed})`
    : `Not major: critical services are affected but neither the data-loss threshold nor two other thresholds are met (${listed})`;
}

// Irish public holidays and working days -------------------------------------------------------

const pad2 = (value: number) => String(value).padStart(2, '0');

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** 0 for Sunday to 6 for Saturday, of an ISO date. */
const weekday = (isoDate: string): number => new Date(`${isoDate}T12:00:00Z`).getUTCDay();

/** The first Monday of a month. */
function firstMonday(year: number, month: number): string {
  const first = `${year}-${pad2(month)}-01`;
  return addDays(first, (8 - weekday(first)) % 7);
}

/** The last Monday of a month. */
function lastMonday(year: number, month: number): string {
  const nextFirst = month === 12 ? `${year + 1}-01-01` : `${year}-${pad2(month + 1)}-01`;
  const last = addDays(nextFirst, -1);
  return addDays(last, -((weekday(last) + 6) % 7));
}

/** St Brigid's Day: the first Monday in February, or 1 February when that is a Friday (from 2023). */
function stBrigidsDay(year: number): string | null {
  if (year < 2023) return null;
  const first = `${year}-02-01`;
  return weekday(first) === 5 ? first : firstMonday(year, 2);
}

/** The public holidays of a year in Ireland (Organisation of Working Time Act 1997 Sch. 2). */
export function irishPublicHolidays(year: number): string[] {
  const days = [
    `${year}-01-01`,
    stBrigidsDay(year),
    `${year}-03-17`,
    addDays(easterSunday(year), 1),
    firstMonday(year, 5),
    firstMonday(year, 6),
    firstMonday(year, 8),
    lastMonday(year, 10),
    `${year}-12-25`,
    `${year}-12-26`,
  ];
  return days.filter((day): day is string => day !== null).sort();
}

/** Whether a day in Ireland is a working day: not a Saturday, a Sunday or a public holiday. */
export function isWorkingDay(isoDate: string): boolean {
  const day = weekday(isoDate);
  if (day === 0 || day === 6) return false;
  return !irishPublicHolidays(Number(isoDate.slice(0, 4))).includes(isoDate);
}

/**
 * A deadline as it stands: on a working day in Dublin it is kept; on a weekend or a public holiday
 * it moves to noon, Dublin time, of the next working day (RTS (EU) 2025/301 Art. 5).
 */
export function onWorkingDay(deadline: Date): Date {
  const day = todayInIreland(deadline);
  if (isWorkingDay(day)) return deadline;
  let next = addDays(day, 1);
  while (!isWorkingDay(next)) next = addDays(next, 1);
  return new Date(instantInIreland(next, NEXT_WORKING_DAY_TIME) as string);
}

let dublinTime: Intl.DateTimeFormat | undefined;

/** The time on a clock in Dublin, `HH:MM`. */
function timeInIreland(at: Date): string {
  dublinTime ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: IRISH_TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return dublinTime.format(at);
}

/**
 * The same clock time in Dublin a calendar month later, on the month's last day when it is
 * shorter; a time in the hour skipped when summer time begins is read an hour later.
 */
function nextMonthInIreland(at: Date): Date {
  const day = todayInIreland(at);
  const time = timeInIreland(at);
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const targetYear = month === 12 ? year + 1 : year;
  const targetMonth = month === 12 ? 1 : month + 1;
  const nextFirst =
    targetMonth === 12 ? `${targetYear + 1}-01-01` : `${targetYear}-${pad2(targetMonth + 1)}-01`;
  const lastDay = Number(addDays(nextFirst, -1).slice(8, 10));
  const target = `${targetYear}-${pad2(targetMonth)}-${pad2(Math.min(Number(day.slice(8, 10)), lastDay))}`;
  const laterHour = `${pad2(Number(time.slice(0, 2)) + 1)}${time.slice(2)}`;
  return new Date(
    (instantInIreland(target, time) ?? instantInIreland(target, laterHour)) as string,
  );
}

// Deadlines --------------------------------------------------------------------------------------

export const REPORT_KINDS = ['initial', 'intermediate', 'final', 'reclassified'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  initial: 'Initial notification',
  intermediate: 'Intermediate report',
  final: 'Final report',
  reclassified: 'Reclassified as not major',
};

/** The deadlines an incident can show; `intermediate_update` is the one after recovery. */
export const DEADLINE_KINDS = [
  'initial',
  'intermediate',
  'intermediate_update',
  'final',
  'reclassified',
] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

export const DEADLINE_KIND_LABELS: Record<DeadlineKind, string> = {
  initial: 'Initial notification',
  intermediate: 'Intermediate report',
  intermediate_update: 'Updated intermediate report, services recovered',
  final: 'Final report',
  reclassified: 'Reclassification report',
};

/**
 * `waiting`: due once an earlier report is made; `due` and `overdue`: still to be made;
 * `met` and `late`: made, on time or not; `withdrawn`: no longer due, the incident no longer major.
 */
export const DEADLINE_STATUSES = ['waiting', 'due', 'overdue', 'met', 'late', 'withdrawn'] as const;
export type DeadlineStatus = (typeof DEADLINE_STATUSES)[number];

export interface Deadline {
  kind: DeadlineKind;
  dueAt: Date | null;
  status: DeadlineStatus;
}

export interface SubmittedReport {
  kind: ReportKind;
  submittedAt: Date;
}

export interface IncidentClockFacts {
  becameAwareAt: Date;
  /** When it was (last) classified major; null when it never was. */
  classifiedMajorAt: Date | null;
  /** When it was reclassified as not major after being major; null while major or never major. */
  reclassifiedAt: Date | null;
  servicesRecoveredAt: Date | null;
  reports: readonly SubmittedReport[];
}

const plusHours = (at: Date, hours: number) => new Date(at.getTime() + hours * HOUR_MS);

function statusOf(dueAt: Date, made: Date | undefined, now: Date): DeadlineStatus {
  if (made !== undefined) return made.getTime() <= dueAt.getTime() ? 'met' : 'late';
  return now.getTime() > dueAt.getTime() ? 'overdue' : 'due';
}

/** The initial notification's deadline: the earlier of 4 hours after classification and 24 after awareness. */
export function initialDeadline(becameAwareAt: Date, classifiedMajorAt: Date): Date {
  const byClassification = plusHours(classifiedMajorAt, INITIAL_HOURS_AFTER_CLASSIFICATION);
  const byAwareness = plusHours(becameAwareAt, INITIAL_HOURS_AFTER_AWARENESS);
  return onWorkingDay(
    byClassification.getTime() < byAwareness.getTime() ? byClassification : byAwareness,
  );
}

/** The deadlines of a major incident's reports, each with its status at `now`. */
export function incidentDeadlines(facts: IncidentClockFacts, now: Date): Deadline[] {
  if (facts.classifiedMajorAt === null) return [];
  const sorted = [...facts.reports].sort(
    (a, b) => a.submittedAt.getTime() - b.submittedAt.getTime(),
  );
  const first = (kind: ReportKind, after?: Date) =>
    sorted.find(
      (report) =>
        report.kind === kind &&
        (after === undefined || report.submittedAt.getTime() >= after.getTime()),
    )?.submittedAt;
  const intermediates = sorted.filter((report) => report.kind === 'intermediate');
  const deadlines: Deadline[] = [];

  const initialDue = initialDeadline(facts.becameAwareAt, facts.classifiedMajorAt);
  const initialMade = first('initial');
  deadlines.push({
    kind: 'initial',
    dueAt: initialDue,
    status: statusOf(initialDue, initialMade, now),
  });

  if (initialMade === undefined) {
    deadlines.push({ kind: 'intermediate', dueAt: null, status: 'waiting' });
  } else {
    const due = onWorkingDay(plusHours(initialMade, INTERMEDIATE_HOURS_AFTER_INITIAL));
    deadlines.push({
      kind: 'intermediate',
      dueAt: due,
      status: statusOf(due, intermediates[0]?.submittedAt, now),
    });
  }

  if (facts.servicesRecoveredAt !== null && initialMade !== undefined) {
    const due = onWorkingDay(plusHours(facts.servicesRecoveredAt, UPDATE_HOURS_AFTER_RECOVERY));
    deadlines.push({
      kind: 'intermediate_update',
      dueAt: due,
      status: statusOf(due, first('intermediate', facts.servicesRecoveredAt), now),
    });
  }

  const latestIntermediate = intermediates.at(-1)?.submittedAt;
  if (latestIntermediate === undefined) {
    deadlines.push({ kind: 'final', dueAt: null, status: 'waiting' });
  } else {
    const due = onWorkingDay(nextMonthInIreland(latestIntermediate));
    deadlines.push({
      kind: 'final',
      dueAt: due,
      status: statusOf(due, first('final', latestIntermediate), now),
    });
  }

  if (facts.reclassifiedAt === null) return deadlines;
  const reclassifiedAt = facts.reclassifiedAt;
  // Reports made by the time of reclassification stand; the rest are no longer due. A
  // reclassification report takes the place of the next one, when any report was made.
  const outstanding = deadlines.filter(
    (deadline) => deadline.status !== 'met' && deadline.status !== 'late',
  );
  const kept = deadlines.map((deadline) =>
    outstanding.includes(deadline) ? { ...deadline, status: 'withdrawn' as const } : deadline,
  );
  if (initialMade === undefined || initialMade.getTime() > reclassifiedAt.getTime()) {
    return kept;
  }
  const next = outstanding.find((deadline) => deadline.dueAt !== null)?.dueAt;
  if (next === undefined || next === null) return kept;
  const due = next.getTime() < reclassifiedAt.getTime() ? onWorkingDay(reclassifiedAt) : next;
  kept.push({
    kind: 'reclassified',
    dueAt: due,
    status: statusOf(due, first('reclassified', reclassifiedAt), now),
  });
  return kept;
}

/** Which report may be made next, given those made and whether the incident is major. */
export function reportAllowed(
  kind: ReportKind,
  facts: IncidentClockFacts,
  now: Date,
): { ok: true } | { ok: false; reason: string } {
  const deadlines = incidentDeadlines(facts, now);
  const kindOf = (deadlineKind: DeadlineKind) => deadlines.find((d) => d.kind === deadlineKind);
  if (facts.classifiedMajorAt === null) {
    return { ok: false, reason: 'Only a major incident is reported: classify it as major first' };
  }
  const made = (reportKind: ReportKind) => facts.reports.some((r) => r.kind === reportKind);
  if (kind === 'reclassified') {
    if (facts.reclassifiedAt === null) {
      return { ok: false, reason: 'The incident is still major: reclassify it as not major first' };
    }
    if (kindOf('reclassified') === undefined || made('reclassified')) {
      return { ok: false, reason: 'No reclassification report is due for this incident' };
    }
    return { ok: true };
  }
  if (facts.reclassifiedAt !== null) {
    return {
      ok: false,
      reason: 'The incident was reclassified as not major: its remaining reports are not due',
    };
  }
  if (kind === 'initial') {
    return made('initial')
      ? { ok: false, reason: 'The initial notification is already recorded' }
      : { ok: true };
  }
  if (!made('initial')) {
    return { ok: false, reason: 'Record the initial notification first' };
  }
  if (made('final')) {
    return { ok: false, reason: 'The final report is already recorded' };
  }
  if (kind === 'final' && !made('intermediate')) {
    return { ok: false, reason: 'Record an intermediate report before the final report' };
  }
  return { ok: true };
}

/** A deadline's clock in words, counting down or saying how it was met. */
export function deadlineInWords(deadline: Deadline, now: Date): string {
  const label = DEADLINE_KIND_LABELS[deadline.kind];
  const span = (ms: number) => {
    const hours = Math.floor(ms / HOUR_MS);
    if (hours === 0) return 'less than an hour';
    if (hours < 48) return counted(hours, 'hour');
    return `${counted(Math.floor(hours / 24), 'day')} and ${counted(hours % 24, 'hour')}`;
  };
  switch (deadline.status) {
    case 'waiting':
      return `${label}: due once the previous report is made`;
    case 'withdrawn':
      return `${label}: no longer due, the incident is not major`;
    case 'met':
      return `${label}: made on time`;
    case 'late':
      return `${label}: made after its deadline`;
    case 'due':
      return `${label}: ${span((deadline.dueAt as Date).getTime() - now.getTime())} left`;
    case 'overdue':
      return `${label}: overdue by ${span(now.getTime() - (deadline.dueAt as Date).getTime())}`;
  }
}
