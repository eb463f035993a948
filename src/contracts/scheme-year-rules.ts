import {
  addYears,
  type DateStatus,
  dateStatus,
  personKey,
  type TrusteeFacts,
} from './governance-rules.js';
import { addMonths, dateInWords } from './irish-dates.js';
import {
  chasedFrom,
  type EmployerRemittanceFacts,
  REMITTANCE_RULES,
  remittanceDuty,
  remittanceMonths,
} from './remittance-rules.js';
import { guidance, law, productPolicy, type RuleLabel, type RuleSource } from './rule-sources.js';
import { administratorDate, membersByFor } from './statement-rules.js';

// Where a month is added to a day: kept with the other dates, and named here as before.
export { addMonths, sameDayMonthsLater } from './irish-dates.js';

/**
 * The scheme year's dated duties an administrator tracks (docs/decisions/0122-the-scheme-year.md):
 * trustee training, and the annual report, the annual scheme information return and the Annual
 * Compliance Statement. Every period and every source lives here; the compliance view, the
 * calendar, the dashboard, the reminders and the web UI all ask this module. Pure functions of the
 * registers and "today", tested against worked dates (test/governance/scheme-year-rules.test.ts).
 */

/** Trustee training: the first within this many months of appointment (s.59AA). */
export const TRAINING_FIRST_WITHIN_MONTHS = 6;
/** And at least once every this many years after (s.59AA). */
export const TRAINING_EVERY_YEARS = 2;
/** The annual report and the annual scheme information return: within this many months. */
export const FILING_WITHIN_MONTHS = 9;
/** The annual report is audited above this many active and deferred members (s.55). */
export const AUDIT_ABOVE_MEMBERS = 100;
/** The Annual Compliance Statement for a calendar year is due by this day of the next, `MM-DD`. */
export const COMPLIANCE_STATEMENT_DUE = '01-31';
/** A new member is given the scheme's basic information within this many months of joining. */
export const NEW_MEMBER_INFORMATION_WITHIN_MONTHS = 2;

/**
 * At most this many periods of one kind are chased, the tracked one included: the usual horizon
 * for keeping a scheme's records (SCHEME_YEAR_RULES.latestYearOnly), so a scheme that began
 * decades ago is not shown a row for every year since.
 */
export const FILING_LOOK_BACK_PERIODS = 6;

/** Where each duty comes from: law to its section, guidance by whose, or this service's policy. */
export const SCHEME_YEAR_RULES = {
  trusteeTraining: law('Pensions Act 1990 s.59AA'),
  annualReport: law('Pensions Act 1990 s.55'),
  annualSchemeInformation: guidance(
    "The Pensions Authority's annual scheme information return, made through the scheme's registered administrator within 9 months of the scheme year's end",
  ),
  annualComplianceStatement: guidance(
    'A practitioner source, not the Act: the statement for a calendar year is prepared by 31 January of the next; this service tracks that it is prepared, not whether or where it is sent',
  ),
  newMemberInformation: law(
    'Pensions Act 1990 s.54 and the Disclosure of Information Regulations (S.I. No. 301/2006)',
  ),
  rejoinersInformedAgain: productPolicy(
    "A member who rejoins is given the scheme's information again, within the same 2 months of rejoining: the scheme may have changed since they left, and information given before is not counted for the new membership",
  ),
  newMembersSinceAdded: productPolicy(
    'Only members who joined on or after the day the scheme was added to this service are chased for their scheme information: those who joined before are taken to have had it',
  ),
  latestYearOnly: productPolicy(
    `The latest scheme year that has ended is chased, and the next once it is done. Where the scheme's start date is recorded, so is each earlier year since it began whose filing is not done, at most the last ${FILING_LOOK_BACK_PERIODS} years, the usual horizon for keeping a scheme's records; without it an earlier year's filing is recorded but not chased`,
  ),
  benefitStatements: law('S.I. No. 128/2021 reg. 31 to reg. 35'),
  statementsSinceAdded: productPolicy(
    'Benefit statements are chased for scheme years that end after the scheme was added to this service: an earlier year’s were issued before it',
  ),
  directorsByName: productPolicy(
    "A corporate trustee's directors are told apart by the name recorded with each training; the trustee is trained when as many directors as it has are",
  ),
} as const satisfies Record<string, RuleSource>;

export const FILING_KINDS = [
  'annual_report',
  'annual_scheme_information',
  'annual_compliance_statement',
] as const;
export type FilingKind = (typeof FILING_KINDS)[number];

export const FILING_KIND_NAMES: Record<FilingKind, string> = {
  annual_report: 'Annual report',
  annual_scheme_information: 'Annual scheme information return',
  annual_compliance_statement: 'Annual Compliance Statement',
};

const FILING_SOURCES: Record<FilingKind, RuleSource> = {
  annual_report: SCHEME_YEAR_RULES.annualReport,
  annual_scheme_information: SCHEME_YEAR_RULES.annualSchemeInformation,
  annual_compliance_statement: SCHEME_YEAR_RULES.annualComplianceStatement,
};

/** The scheme year that ends in `year`: its last day. */
export function yearEndIn(yearEnd: string, year: number): string {
  return `${String(year).padStart(4, '0')}-${yearEnd}`;
}

/** The last scheme year end before `today`: the year has ended once its last day is over. */
export function latestYearEnd(yearEnd: string, today: string): string {
  const year = Number(today.slice(0, 4));
  const thisYear = yearEndIn(yearEnd, year);
  return thisYear < today ? thisYear : yearEndIn(yearEnd, year - 1);
}

/** When a filing for the period ending `periodEnd` is due. */
export function filingDueOn(kind: FilingKind, periodEnd: string): string {
  if (kind === 'annual_compliance_statement') {
    return `${String(Number(periodEnd.slice(0, 4)) + 1).padStart(4, '0')}-${COMPLIANCE_STATEMENT_DUE}`;
  }
  return addMonths(periodEnd, FILING_WITHIN_MONTHS);
}

/**
 * The period a filing of `kind` is chased for on `today`: the last scheme year that has ended
 * (the annual report and return), or the last calendar year (the compliance statement).
 */
export function trackedPeriodEnd(kind: FilingKind, yearEnd: string, today: string): string {
  return kind === 'annual_compliance_statement'
    ? latestYearEnd('12-31', today)
    : latestYearEnd(yearEnd, today);
}

/** The period after `periodEnd`: a year later. */
const nextPeriodEnd = (periodEnd: string) => addYears(periodEnd, 1);

/**
 * The periods of `kind` a filing is owed for on `today`, earliest first, the tracked one last.
 * Without a start date: the tracked period alone, since the service cannot tell when the scheme
 * was established. With one: each period from the one its start falls in, at most
 * FILING_LOOK_BACK_PERIODS; for a scheme that began after the tracked period ended, its first
 * period alone. No filing is owed for a year the scheme did not exist in.
 */
export function owedPeriodEnds(
  kind: FilingKind,
  { yearEnd, startedOn }: Pick<SchemeYearFacts, 'yearEnd' | 'startedOn'>,
  today: string,
): string[] {
  const tracked = trackedPeriodEnd(kind, yearEnd, today);
  if (startedOn == null) return [tracked];
  const first = nextPeriodEnd(
    latestYearEnd(kind === 'annual_compliance_statement' ? '12-31' : yearEnd, startedOn),
  );
  if (first >= tracked) return [first];
  const periods = [tracked];
  while (periods.length < FILING_LOOK_BACK_PERIODS) {
    const before = addYears(periods[0] as string, -1);
    if (before < first) break;
    periods.unshift(before);
  }
  return periods;
}

export interface TrainingFacts {
  trusteeId: string;
  completedOn: string;
  directorName: string | null;
}

export interface FilingFacts {
  id: string;
  kind: FilingKind;
  periodEnd: string;
  completedOn: string | null;
  audited: boolean | null;
}

/** A member who joined since the scheme was added to this service, and is still active. */
export interface NewMemberFacts {
  /** The day their current membership began: joining, or the latest rejoining. */
  joinedOn: string;
  informationSentOn: string | null;
}

/**
 * The day a member's current membership began, from which the scheme's information is owed:
 * joining, or for an active member who rejoined, the latest rejoining. For an active member
 * `statusOn` (the day of the latest change of status) is only ever a rejoining: every other change
 * leaves them something other than active.
 */
export function membershipBeganOn(member: {
  status: string;
  dateJoined: string;
  statusOn: string | null;
}): string {
  return member.status === 'active' && member.statusOn !== null
    ? member.statusOn
    : member.dateJoined;
}

/**
 * Whether a member still waits for the scheme's information for their current membership: none
 * recorded, or recorded before they rejoined (SCHEME_YEAR_RULES.rejoinersInformedAgain).
 */
export function waitsForInformation(member: NewMemberFacts): boolean {
  return member.informationSentOn === null || member.informationSentOn < member.joinedOn;
}

export interface SchemeYearFacts {
  /** `MM-DD`. */
  yearEnd: string;
  /** Active and deferred members today: above AUDIT_ABOVE_MEMBERS the annual report is audited. */
  members: number;
  trustees: readonly TrusteeFacts[];
  trainings: readonly TrainingFacts[];
  filings: readonly FilingFacts[];
  newMembers: readonly NewMemberFacts[];
  /**
   * The scheme's employer's remittance from the month the scheme was added to this service
   * (docs/decisions/0136-contribution-remittance.md, REMITTANCE_RULES.monthsSinceAdded).
   */
  remittance: EmployerRemittanceFacts;
  /**
   * The scheme's statement runs not failed (docs/decisions/0141-pension-benefit-statements.md) and
   * the day it was added to this service; without them no benefit statement is chased.
   */
  statementRuns?: readonly StatementRunFacts[];
  addedOn?: string;
  /**
   * The day the scheme began, where it is recorded: a scheme owes no filing for a scheme year that
   * ended before it began (filingObligations).
   */
  startedOn?: string | null;
}

/** A statement run as the duty reads it. */
export interface StatementRunFacts {
  informationDate: string;
  membersBy: string;
  status: string;
  /** The day in Ireland it was issued, or null. */
  issuedOn: string | null;
}

export type SchemeYearObligationKind =
  | 'trustee_training'
  | 'benefit_statements'
  | 'new_member_information'
  | 'contribution_remittance'
  | FilingKind;

export interface SchemeYearObligation {
  kind: SchemeYearObligationKind;
  subjectId?: string;
  dueOn?: string;
  status: DateStatus | 'incomplete';
  reason: string;
  label: RuleLabel;
  citation: string;
}

const from = (source: RuleSource) => ({ label: source.label, citation: source.citation });

const serving = (trustee: TrusteeFacts, today: string) =>
  trustee.appointedOn <= today && (trustee.endedOn === null || trustee.endedOn > today);

/**
 * When a trainee is next due: within TRAINING_FIRST_WITHIN_MONTHS of the appointment until the
 * first training on or after it, then TRAINING_EVERY_YEARS after the latest.
 */
function nextTrainingDue(appointedOn: string, trainedOn: readonly string[]): string {
  const since = trainedOn.filter((day) => day >= appointedOn).sort();
  const latest = since.at(-1);
  return latest === undefined
    ? addMonths(appointedOn, TRAINING_FIRST_WITHIN_MONTHS)
    : addYears(latest, TRAINING_EVERY_YEARS);
}

/** One obligation for each trustee serving on `today`: its training, or its directors'. */
export function trainingObligations(
  facts: Pick<SchemeYearFacts, 'trustees' | 'trainings'>,
  today: string,
): SchemeYearObligation[] {
  return facts.trustees
    .filter((trustee) => serving(trustee, today))
    .map((trustee) => {
      const own = facts.trainings.filter((training) => training.trusteeId === trustee.id);
      return trustee.kind === 'corporate'
        ? corporateTraining(trustee, own, today)
        : individualTraining(trustee, own, today);
    });
}

function individualTraining(
  trustee: TrusteeFacts,
  trainings: readonly TrainingFacts[],
  today: string,
): SchemeYearObligation {
  const trainedOn = trainings.map((training) => training.completedOn);
  const dueOn = nextTrainingDue(trustee.appointedOn, trainedOn);
  const latest = trainedOn
    .filter((day) => day >= trustee.appointedOn)
    .sort()
    .at(-1);
  const reason =
    latest === undefined
      ? `No training recorded since appointment on ${dateInWords(trustee.appointedOn)}: due within ${TRAINING_FIRST_WITHIN_MONTHS} months, by ${dateInWords(dueOn)}`
      : `Last trained on ${dateInWords(latest)}: next due by ${dateInWords(dueOn)}`;
  return {
    kind: 'trustee_training',
    subjectId: trustee.id,
    dueOn,
    status: dateStatus(dueOn, today),
    reason,
    ...from(SCHEME_YEAR_RULES.trusteeTraining),
  };
}

/**
 * A corporate trustee is trained when as many of its directors as it has are, each since the
 * appointment (SCHEME_YEAR_RULES.directorsByName). Until then it is due as a first training is;
 * after, by the earliest of the trained directors' next dates.
 */
function corporateTraining(
  trustee: TrusteeFacts,
  trainings: readonly TrainingFacts[],
  today: string,
): SchemeYearObligation {
  const needed = Math.max(trustee.directorCount ?? 0, 1);
  const latestByDirector = new Map<string, string>();
  for (const training of trainings) {
    if (training.directorName === null || training.completedOn < trustee.appointedOn) continue;
    // The same director, as far as the records can tell (samePerson).
    const key = personKey(training.directorName);
    const latest = latestByDirector.get(key);
    if (latest === undefined || training.completedOn > latest) {
      latestByDirector.set(key, training.completedOn);
    }
  }
  const trained = latestByDirector.size;
  const firstDue = addMonths(trustee.appointedOn, TRAINING_FIRST_WITHIN_MONTHS);
  const nextDues = [...latestByDirector.values()]
    .map((latest) => addYears(latest, TRAINING_EVERY_YEARS))
    .sort();
  const allTrained = trained >= needed;
  const dueOn = allTrained ? (nextDues[0] as string) : firstDue;
  const reason = allTrained
    ? `${trained} of ${needed} directors trained; the earliest next training is due by ${dateInWords(dueOn)}`
    : `${trained} of ${needed} directors trained since appointment on ${dateInWords(trustee.appointedOn)}: each is due within ${TRAINING_FIRST_WITHIN_MONTHS} months, by ${dateInWords(firstDue)}`;
  return {
    kind: 'trustee_training',
    subjectId: trustee.id,
    dueOn,
    status: dateStatus(dueOn, today),
    reason,
    ...from(SCHEME_YEAR_RULES.trusteeTraining),
  };
}

/**
 * The filings owed, for each kind (owedPeriodEnds): one obligation for each earlier period whose
 * filing is not done, each naming its period, and one for the tracked period, or, once that is
 * done, for the next period's, so the calendar always shows the next date.
 */
export function filingObligations(
  facts: Pick<SchemeYearFacts, 'yearEnd' | 'members' | 'filings' | 'startedOn'>,
  today: string,
): SchemeYearObligation[] {
  return FILING_KINDS.flatMap((kind) => {
    const periods = owedPeriodEnds(kind, facts, today);
    const tracked = periods.at(-1) as string;
    const earlier = periods.slice(0, -1).flatMap((periodEnd) => {
      const filing = filingSubject(kind, periodEnd, facts.filings);
      // A period done raises nothing: only the tracked one shows the next date.
      return filing?.completedOn == null ? [owedObligation(kind, periodEnd, filing, today)] : [];
    });
    return [...earlier, trackedObligation(kind, tracked, facts, today)];
  });
}

const filingSubject = (kind: FilingKind, periodEnd: string, filings: readonly FilingFacts[]) =>
  filings.find((entry) => entry.kind === kind && entry.periodEnd === periodEnd);

const periodInWordsOf = (kind: FilingKind, periodEnd: string) =>
  kind === 'annual_compliance_statement'
    ? `${periodEnd.slice(0, 4)}`
    : `the year ended ${dateInWords(periodEnd)}`;

const doneInWords = (kind: FilingKind) =>
  kind === 'annual_compliance_statement' ? 'prepared' : 'completed';

/** A period's filing not yet done: not recorded, or recorded and not completed. */
function owedObligation(
  kind: FilingKind,
  periodEnd: string,
  filing: FilingFacts | undefined,
  today: string,
): SchemeYearObligation {
  const dueOn = filingDueOn(kind, periodEnd);
  return {
    kind,
    ...(filing ? { subjectId: filing.id } : {}),
    dueOn,
    status: dateStatus(dueOn, today),
    reason: `${FILING_KIND_NAMES[kind]} for ${periodInWordsOf(kind, periodEnd)} not yet ${doneInWords(kind)}: due by ${dateInWords(dueOn)}`,
    ...from(FILING_SOURCES[kind]),
  };
}

/**
 * The tracked period's filing: not done, done but an annual report of a scheme above
 * AUDIT_ABOVE_MEMBERS not recorded as audited, or done with the next period's date.
 */
function trackedObligation(
  kind: FilingKind,
  periodEnd: string,
  facts: Pick<SchemeYearFacts, 'members' | 'filings'>,
  today: string,
): SchemeYearObligation {
  const filing = filingSubject(kind, periodEnd, facts.filings);
  if (filing?.completedOn == null) return owedObligation(kind, periodEnd, filing, today);
  const source = from(FILING_SOURCES[kind]);
  const name = FILING_KIND_NAMES[kind];
  const period = periodInWordsOf(kind, periodEnd);
  if (kind === 'annual_report' && facts.members > AUDIT_ABOVE_MEMBERS && filing.audited !== true) {
    return {
      kind,
      subjectId: filing.id,
      dueOn: filingDueOn(kind, periodEnd),
      status: 'incomplete',
      reason: `${name} for ${period} is recorded as not audited: a scheme of more than ${AUDIT_ABOVE_MEMBERS} active and deferred members has it audited`,
      ...source,
    };
  }
  const next = filingDueOn(kind, nextPeriodEnd(periodEnd));
  return {
    kind,
    subjectId: filing.id,
    dueOn: next,
    status: dateStatus(next, today),
    reason: `${name} for ${period} ${doneInWords(kind)} on ${dateInWords(filing.completedOn)}; the next is due by ${dateInWords(next)}`,
    ...source,
  };
}

/**
 * The scheme's information for its new members, each within NEW_MEMBER_INFORMATION_WITHIN_MONTHS
 * of joining (s.54) or rejoining (SCHEME_YEAR_RULES.rejoinersInformedAgain): one obligation for the
 * scheme, due when the earliest still waiting is.
 */
export function newMemberInformationObligation(
  facts: Pick<SchemeYearFacts, 'newMembers'>,
  today: string,
): SchemeYearObligation {
  const source = from(SCHEME_YEAR_RULES.newMemberInformation);
  const waiting = facts.newMembers.filter(waitsForInformation);
  if (waiting.length === 0) {
    return {
      kind: 'new_member_information',
      status: 'ok',
      reason:
        facts.newMembers.length === 0
          ? 'No member has joined since the scheme was added to this service'
          : 'Every member who joined since the scheme was added has been given its information',
      ...source,
    };
  }
  const dueOn = waiting
    .map((member) => addMonths(member.joinedOn, NEW_MEMBER_INFORMATION_WITHIN_MONTHS))
    .sort()[0] as string;
  const count =
    waiting.length === 1
      ? '1 member who joined is waiting'
      : `${waiting.length} members who joined are waiting`;
  return {
    kind: 'new_member_information',
    dueOn,
    status: dateStatus(dueOn, today),
    reason: `${count} for the scheme's information, due within ${NEW_MEMBER_INFORMATION_WITHIN_MONTHS} months of joining: the earliest by ${dateInWords(dueOn)}`,
    ...source,
  };
}

/**
 * The remittance of what the employer deducted (Pensions Act 1990 s.58A): one obligation for the
 * scheme, from its employer's months since it was added (remittance-rules.ts, chasedFrom and
 * remittanceDuty), judged month by month as the employer's calendar judges them.
 */
export function contributionRemittanceObligation(
  facts: Pick<SchemeYearFacts, 'remittance' | 'addedOn'>,
  today: string,
): SchemeYearObligation {
  const chased = chasedFrom(facts.addedOn === undefined ? [] : [facts.addedOn]);
  return {
    kind: 'contribution_remittance',
    ...remittanceDuty(remittanceMonths(facts.remittance, today, chased), today, chased),
    ...from(REMITTANCE_RULES.remittance),
  };
}

/**
 * The year's Pension Benefit Statements (STATEMENT_RULES.annual): for the latest scheme year that
 * has ended after the scheme was added, members are to have them within MEMBERS_BY_MONTHS of its
 * end (or by the date a run gives), the trustees a month before. A run for that year issued by then
 * makes the duty ok; until then it is due on the trustees' date while no run is ready, then on the
 * members' date.
 */
export function benefitStatementsObligation(
  facts: Pick<SchemeYearFacts, 'yearEnd' | 'members' | 'statementRuns' | 'addedOn'>,
  today: string,
): SchemeYearObligation {
  const source = from(SCHEME_YEAR_RULES.benefitStatements);
  const periodEnd = latestYearEnd(facts.yearEnd, today);
  const previousEnd = latestYearEnd(facts.yearEnd, periodEnd);
  const ofYear = (facts.statementRuns ?? []).filter(
    (run) => run.informationDate > previousEnd && run.informationDate <= periodEnd,
  );
  const tracked = facts.addedOn === undefined || facts.addedOn <= periodEnd;
  if (facts.members === 0 || !tracked) {
    const next = membersByFor(nextPeriodEnd(periodEnd));
    return {
      kind: 'benefit_statements',
      dueOn: next,
      status: 'ok',
      reason:
        facts.members === 0
          ? 'No active or deferred member is owed a benefit statement'
          : `The first benefit statements are due to members by ${dateInWords(next)}, to the trustees by ${dateInWords(administratorDate(next))}`,
      ...source,
    };
  }
  const membersBy = ofYear.map((run) => run.membersBy).sort()[0] ?? membersByFor(periodEnd);
  const issued = ofYear.find((run) => run.issuedOn !== null && run.issuedOn <= membersBy);
  if (issued) {
    const next = membersByFor(nextPeriodEnd(periodEnd));
    return {
      kind: 'benefit_statements',
      dueOn: next,
      status: 'ok',
      reason: `Benefit statements at ${dateInWords(issued.informationDate)} issued on ${dateInWords(issued.issuedOn as string)}; the next are due to members by ${dateInWords(next)}`,
      ...source,
    };
  }
  const prepared = ofYear.some((run) => ['ready', 'approved', 'issued'].includes(run.status));
  const trusteesBy = administratorDate(membersBy);
  const dueOn = prepared ? membersBy : trusteesBy;
  return {
    kind: 'benefit_statements',
    dueOn,
    status: dateStatus(dueOn, today),
    reason: prepared
      ? `Benefit statements for the year to ${dateInWords(periodEnd)} are prepared and not yet issued: members must have them by ${dateInWords(membersBy)}`
      : `Benefit statements for the year to ${dateInWords(periodEnd)} are to be with the trustees by ${dateInWords(trusteesBy)}, a month before members must have them on ${dateInWords(membersBy)}`,
    ...source,
  };
}

/** Every scheme-year duty of a scheme that keeps governance registers. */
export function schemeYearObligations(
  facts: SchemeYearFacts,
  today: string,
): SchemeYearObligation[] {
  return [
    ...trainingObligations(facts, today),
    ...filingObligations(facts, today),
    newMemberInformationObligation(facts, today),
    contributionRemittanceObligation(facts, today),
    benefitStatementsObligation(facts, today),
  ];
}
