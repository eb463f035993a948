import { addDays, dateInWords } from './irish-dates.js';
import type { RacKind, SchemeType } from './organisation.js';
import { guidance, law, productPolicy, type RuleLabel, type RuleSource } from './rule-sources.js';

/**
 * The governance rules of IORP II as this product applies them (Directive (EU) 2016/2341 and
 * docs/decisions/0059-governance-rules.md): which key functions and written policies a scheme
 * needs, how often each is reviewed, when the own-risk assessment (ORA) falls due, and when
 * reminders go out. Every period, every list of required functions or policies and every source
 * lives here and nowhere else: the API, the reminders job and the web UI all ask this module. The
 * functions are pure: "today" is a parameter, so each rule is tested against worked dates
 * (test/governance/rules.test.ts).
 *
 * Every rule has its source in GOVERNANCE_RULES, labelled law, guidance or product policy
 * (docs/decisions/0120-rules-labelled-law-guidance-policy.md). Law is cited to the section of the
 * Pensions Act 1990 where the project has checked it (s.64AC, s.64AL) and otherwise to the
 * Directive's article, which the Act carries into Irish law as amended by the European Union
 * (Occupational Pension Schemes) Regulations 2021 (S.I. No. 128 of 2021).
 */

const DIRECTIVE = 'Directive (EU) 2016/2341';
const TRANSPOSED = 'as transposed by S.I. No. 128/2021';

/**
 * How long after a significant change this service shows a review, or an ORA, as due. The law says
 * "without delay" for the ORA (Pensions Act 1990 s.64AL(3)(b)) and only that a written policy is
 * adapted after a significant change (Directive (EU) 2016/2341 Art. 21(3)), with no day for either:
 * the days are this service's, and one edit here changes them everywhere.
 */
export const SIGNIFICANT_CHANGE_GRACE_DAYS = 30;

/**
 * Reminders 60, 30, 14 and 7 days before a due date, and on the day
 * (docs/decisions/0059-governance-rules.md).
 */
export const REMINDER_DAYS_BEFORE = [60, 30, 14, 7, 0] as const;
/** And again every week while overdue. */
export const OVERDUE_REMINDER_INTERVAL_DAYS = 7;

/** Where each rule comes from: law to its section or article, guidance by whose, or policy. */
export const GOVERNANCE_RULES = {
  scope: law('S.I. No. 128/2021 reg. 3'),
  trustees: law('Pensions Act 1990 s.64AC(1)–(2)'),
  keyFunctions: law(`${DIRECTIVE} Art. 24, ${TRANSPOSED}`),
  actuarialFunction: law(`${DIRECTIVE} Art. 27, ${TRANSPOSED}`),
  fitnessAndProbity: law(`${DIRECTIVE} Art. 22, ${TRANSPOSED}`),
  keyFunctionNotification: law(`${DIRECTIVE} Art. 22, ${TRANSPOSED}`),
  conflictsProtocol: law(`${DIRECTIVE} Art. 24, ${TRANSPOSED}`),
  writtenPolicies: law(`${DIRECTIVE} Art. 21(3), ${TRANSPOSED}`),
  remunerationPolicy: law(`${DIRECTIVE} Art. 23, ${TRANSPOSED}`),
  investmentPrinciples: law(`${DIRECTIVE} Art. 30, ${TRANSPOSED}`),
  ownRiskAssessment: law('Pensions Act 1990 s.64AL(3)'),
  oraContent: law(`${DIRECTIVE} Art. 28(2), ${TRANSPOSED}`),
  actuarialForDefinedBenefit: productPolicy(
    'An actuarial key function and policy are asked of a defined benefit scheme only: of the scheme types kept here, it is the one that may cover biometric risks or guarantee a return or a level of benefits',
  ),
  outsourcingPolicyAlways: productPolicy(
    'An outsourcing policy is asked of every scheme administered here: the firm administering it is itself a service provider to the trustees',
  ),
  reviewCountedFromDueDate: productPolicy(
    'A review is counted from the day it was due, not from a late completion, which is stricter than at least once every three years',
  ),
  significantChangeGrace: productPolicy(
    `After a significant change, a review or an own-risk assessment is shown as due ${SIGNIFICANT_CHANGE_GRACE_DAYS} days after the change`,
  ),
  reminders: productPolicy(
    `Reminders ${REMINDER_DAYS_BEFORE.filter((days) => days > 0).join(', ')} days before a due date and on the day, then every ${OVERDUE_REMINDER_INTERVAL_DAYS} days while overdue`,
  ),
  conflictsOfInterest: guidance(
    'The Pensions Authority’s Code of Practice for trustees: conflicts of interest are identified, recorded and managed',
  ),
  trusteeChair: productPolicy(
    'The register keeps one chair of the trustees at a time, a trustee serving on the day: naming a new chair takes the chair from the former one',
  ),
  oraGoodPractice: guidance(
    "Good practice from a practitioner's guide, not the Pensions Authority's guidance and not the Act",
  ),
} as const satisfies Record<string, RuleSource>;

/**
 * What a practitioner's guide says reviews most often find missing from an ORA: good
 * practice, labelled so (GOVERNANCE_RULES.oraGoodPractice), never cited as the law.
 */
export const ORA_GOOD_PRACTICE = [
  'the scheme’s viability',
  'risks from outsourced and ICT services',
  'the trustees’ risk appetite',
  'board minutes that show the trustees engaged with the assessment themselves',
] as const;

/** The key functions of an IORP. There is no "compliance" key function. */
export const KEY_FUNCTIONS = ['risk_management', 'internal_audit', 'actuarial'] as const;
export type KeyFunction = (typeof KEY_FUNCTIONS)[number];

export const KEY_FUNCTION_NAMES: Record<KeyFunction, string> = {
  risk_management: 'Risk management',
  internal_audit: 'Internal audit',
  actuarial: 'Actuarial',
};

/** The kinds of written policy the product keeps. */
export const POLICY_KINDS = [
  'risk_management',
  'internal_audit',
  'remuneration',
  'actuarial',
  'outsourcing',
  'investment_principles',
] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export const POLICY_KIND_NAMES: Record<PolicyKind, string> = {
  risk_management: 'Risk management policy',
  internal_audit: 'Internal audit policy',
  remuneration: 'Remuneration policy',
  actuarial: 'Actuarial policy',
  outsourcing: 'Outsourcing policy',
  investment_principles: 'Statement of investment policy principles',
};

export const FITNESS_AND_PROBITY = ['pending', 'confirmed', 'failed'] as const;
export type FitnessAndProbity = (typeof FITNESS_AND_PROBITY)[number];

// The words for each value, the same on the governance pages and in the evidence pack's summary
// (docs/decisions/0105-shared-words-and-shapes.md). Keyed by the value's own type, so a value
// added to a list fails the build until it has its words.

export const FITNESS_NAMES: Record<FitnessAndProbity, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  failed: 'Not met',
};

export const TRUSTEE_KINDS = ['individual', 'corporate'] as const;
export type TrusteeKind = (typeof TRUSTEE_KINDS)[number];

export const TRUSTEE_KIND_NAMES: Record<TrusteeKind, string> = {
  individual: 'Individual',
  corporate: 'Corporate trustee',
};

export const ORA_TRIGGERS = ['scheduled', 'significant_change'] as const;
export type OraTrigger = (typeof ORA_TRIGGERS)[number];

export const ORA_TRIGGER_NAMES: Record<OraTrigger, string> = {
  scheduled: 'Scheduled review',
  significant_change: 'After a significant change in the risk profile',
};

/** Pensions Act 1990 s.64AC(1): at least 2 trustees who effectively run the scheme. */
export const MINIMUM_TRUSTEES = 2;
/** s.64AC(2): a sole corporate trustee meets it with at least 2 directors who effectively run it. */
export const MINIMUM_CORPORATE_DIRECTORS = 2;
/** Art. 21(3), Art. 23, s.64AL(3)(a): written policies and the ORA at least every 3 years. */
export const REVIEW_CYCLE_YEARS = 3;
/** A date is "due soon" from the first reminder on (GOVERNANCE_RULES.reminders). */
export const DUE_SOON_DAYS = REMINDER_DAYS_BEFORE[0];

/**
 * IORP II governs occupational schemes and trust RACs (S.I. No. 128/2021 reg. 3). A PRSA, and an
 * RAC that is an individual contract with an insurer, is a contract with its provider, not a trust
 * run by trustees, so none of these registers applies to it.
 */
export function governanceApplies(scheme: { type: SchemeType; racKind: RacKind | null }): boolean {
  if (scheme.type === 'PRSA') return false;
  return scheme.type !== 'RAC' || scheme.racKind === 'trust';
}

/** Why a scheme keeps no governance registers, in words; null for one that does. */
export function outOfScopeReason(scheme: {
  type: SchemeType;
  racKind: RacKind | null;
}): string | null {
  if (governanceApplies(scheme)) return null;
  return scheme.type === 'PRSA'
    ? 'A PRSA is a contract with its provider, not a trust: the IORP II governance registers do not apply to it'
    : 'This RAC is an individual contract with an insurer, not a trust: the IORP II governance registers do not apply to it';
}

/**
 * The key functions a scheme must fill: risk management and internal audit always (Art. 24);
 * actuarial where the scheme covers biometric risks or guarantees a return or a level of benefits
 * (Art. 27), which this service takes to mean a defined benefit scheme
 * (GOVERNANCE_RULES.actuarialForDefinedBenefit: product policy, since the law's test is not the
 * scheme's type).
 */
export function requiredKeyFunctions(type: SchemeType): readonly KeyFunction[] {
  if (type === 'PRSA') return [];
  return type === 'DB'
    ? ['risk_management', 'internal_audit', 'actuarial']
    : ['risk_management', 'internal_audit'];
}

/**
 * The written policies a scheme must have approved: risk management, internal audit and
 * remuneration always (Art. 21(3), Art. 23); actuarial where relevant (DB, as above); outsourcing
 * where activities are outsourced, which this service takes to be always
 * (GOVERNANCE_RULES.outsourcingPolicyAlways): the broker firm is itself a service provider to the
 * trustees; and the statement of investment policy principles, reviewed at least every 3 years
 * (Art. 30).
 */
export function requiredPolicyKinds(type: SchemeType): readonly PolicyKind[] {
  if (type === 'PRSA') return [];
  return type === 'DB'
    ? [
        'risk_management',
        'internal_audit',
        'remuneration',
        'actuarial',
        'outsourcing',
        'investment_principles',
      ]
    : ['risk_management', 'internal_audit', 'remuneration', 'outsourcing', 'investment_principles'];
}

/** The source of a policy kind's obligation. */
export function policySource(kind: PolicyKind): RuleSource {
  if (kind === 'remuneration') return GOVERNANCE_RULES.remunerationPolicy;
  if (kind === 'investment_principles') return GOVERNANCE_RULES.investmentPrinciples;
  return GOVERNANCE_RULES.writtenPolicies;
}

/** The same calendar day `years` later; 29 February becomes 28 February in a common year. */
export function addYears(isoDate: string, years: number): string {
  const year = Number(isoDate.slice(0, 4)) + years;
  const month = isoDate.slice(5, 7);
  let day = isoDate.slice(8, 10);
  if (month === '02' && day === '29' && !isLeapYear(year)) day = '28';
  return `${String(year).padStart(4, '0')}-${month}-${day}`;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const earlier = (a: string, b: string) => (a <= b ? a : b);

/**
 * When the next review falls due after one completed on `completedOn`. The law asks for one at
 * least once every three years; this service counts from when the last was due, not from when it
 * was finished late (GOVERNANCE_RULES.reviewCountedFromDueDate: product policy, stricter than the
 * law); one finished early starts the cycle early, since the next must come within three years of
 * it. The first review (no
 * earlier due date) counts from its completion. A review more than a whole cycle late keeps its
 * cycle's dates: the next is the first of them after the completion, never one already past.
 */
export function nextReviewDue(completedOn: string, previouslyDueOn: string | null): string {
  const from = previouslyDueOn === null ? completedOn : earlier(completedOn, previouslyDueOn);
  let cycles = 1;
  while (addYears(from, REVIEW_CYCLE_YEARS * cycles) <= completedOn) cycles += 1;
  return addYears(from, REVIEW_CYCLE_YEARS * cycles);
}

/**
 * The due date once significant changes are taken into account. After a significant change the
 * law asks for an ORA "without delay" (s.64AL(3)(b)) and for a written policy to be adapted (Art.
 * 21(3)), naming no day for either; this service shows the review, or the ORA, as due
 * SIGNIFICANT_CHANGE_GRACE_DAYS after the change (GOVERNANCE_RULES.significantChangeGrace: product
 * policy), unless the last review came after the change.
 */
export function dueAfterChanges(
  cycleDueOn: string,
  reviewedOn: string,
  changesOccurredOn: readonly string[],
): string {
  let due = cycleDueOn;
  for (const occurredOn of changesOccurredOn) {
    if (occurredOn > reviewedOn) due = earlier(due, dueAfterChange(occurredOn));
  }
  return due;
}

/** The day this service shows a review as due after a significant change on `occurredOn`. */
export function dueAfterChange(occurredOn: string): string {
  return addDays(occurredOn, SIGNIFICANT_CHANGE_GRACE_DAYS);
}

/**
 * What recording a significant change does, said as the law says it and then as this service
 * counts it: the forms that record a change show these words.
 */
export const SIGNIFICANT_CHANGE_EFFECTS = {
  riskProfile: `The law asks for an own-risk assessment without delay after a significant change in the scheme’s risk profile (${GOVERNANCE_RULES.ownRiskAssessment.citation}). This service shows it as due ${SIGNIFICANT_CHANGE_GRACE_DAYS} days after the change.`,
  policy: (policyName: string) =>
    `The law asks for the ${policyName} to be adapted after a significant change in its area, and names no day (${GOVERNANCE_RULES.writtenPolicies.citation}). This service shows its review as due ${SIGNIFICANT_CHANGE_GRACE_DAYS} days after the change.`,
};

export type DateStatus = 'ok' | 'due_soon' | 'overdue';

/**
 * Where a calendar entry stands in the calendar's order: by date, then scheme, kind and subject.
 * Unique across a tenant's entries, so it keys a row and places a page's cursor.
 */
export function calendarPosition(entry: {
  dueOn: string;
  schemeId: string;
  kind: string;
  subjectId?: string;
}): string {
  return `${entry.dueOn}|${entry.schemeId}|${entry.kind}|${entry.subjectId ?? ''}`;
}

/** Overdue from the day after the due date; due soon within the reminder window. */
export function dateStatus(dueOn: string, today: string): DateStatus {
  if (today > dueOn) return 'overdue';
  if (addDays(today, DUE_SOON_DAYS) >= dueOn) return 'due_soon';
  return 'ok';
}

/**
 * The reminder stage a due date is at on `today`, or null before the first reminder: the latest
 * of 60, 30, 14, 7 days before and the day itself that has come, then one stage for each whole week
 * overdue. A job that missed days sends only the latest stage, never the ones it slept through.
 */
/**
 * Whether a person is reminded of an obligation: it has a day and is not OK (overdue, due within
 * DUE_SOON_DAYS, or dated and incomplete). The governance dashboard's list and the reminder
 * e-mails both ask this, so a duty done, whose next day is further off than that, is in neither,
 * and a scheme that stands OK has nothing in them (docs/decisions/0131-what-people-read.md).
 */
export function isReminder<T extends { dueOn?: string; status: ObligationStatus }>(
  obligation: T,
): obligation is T & { dueOn: string } {
  return obligation.dueOn !== undefined && obligation.status !== 'ok';
}

export function reminderStage(dueOn: string, today: string): string | null {
  if (today > dueOn) {
    const weeksOver = Math.floor(daysBetween(dueOn, today) / OVERDUE_REMINDER_INTERVAL_DAYS);
    // Until a week has passed, the day's own reminder is the latest.
    return weeksOver === 0 ? 'due_today' : `overdue_${weeksOver}`;
  }
  for (const days of [...REMINDER_DAYS_BEFORE].sort((a, b) => a - b)) {
    if (today >= addDays(dueOn, -days)) return days === 0 ? 'due_today' : `before_${days}`;
  }
  return null;
}

/** Whole days from `from` to `to` (ISO dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

// The assessment of one scheme.

export interface TrusteeFacts {
  id: string;
  kind: TrusteeKind;
  /** Art. 22 asks it of those who effectively run the scheme, the trustees too. */
  fitnessAndProbity: FitnessAndProbity;
  directorCount: number | null;
  appointedOn: string;
  endedOn: string | null;
}

export interface KeyFunctionHolderFacts {
  id: string;
  function: KeyFunction;
  holderName: string;
  appointedOn: string;
  endedOn: string | null;
  fitnessAndProbity: FitnessAndProbity;
  alsoServesEmployer: boolean;
  conflictsProtocol: string | null;
  /** The day the appointment was notified to the Pensions Authority, if it has been. */
  notifiedOn: string | null;
}

export interface PolicyFacts {
  id: string;
  kind: PolicyKind;
  status: 'draft' | 'approved' | 'superseded';
  approvedOn: string | null;
  nextReviewDue: string | null;
}

export interface OraFacts {
  id: string;
  performedOn: string;
  nextDue: string;
}

export interface SignificantChangeFacts {
  /** The policy it concerns, or null for a change in the scheme's risk profile (the ORA). */
  policyId: string | null;
  occurredOn: string;
}

export interface SchemeGovernanceFacts {
  type: SchemeType;
  racKind: RacKind | null;
  trustees: readonly TrusteeFacts[];
  keyFunctionHolders: readonly KeyFunctionHolderFacts[];
  policies: readonly PolicyFacts[];
  oraReports: readonly OraFacts[];
  significantChanges: readonly SignificantChangeFacts[];
}

export const OBLIGATION_KINDS = [
  'scope',
  'trustees',
  'key_function',
  'fitness_and_probity',
  'key_function_notification',
  'conflicts_protocol',
  'written_policy',
  'investment_principles',
  'own_risk_assessment',
  'trustee_training',
  'annual_report',
  'annual_scheme_information',
  'annual_compliance_statement',
  'new_member_information',
  'contribution_remittance',
  'benefit_statements',
] as const;
export type ObligationKind = (typeof OBLIGATION_KINDS)[number];

export const OBLIGATION_NAMES: Record<ObligationKind, string> = {
  scope: 'Scope of IORP II',
  trustees: 'Trustees',
  key_function: 'Key function',
  fitness_and_probity: 'Fitness and probity',
  key_function_notification: 'Notification of a key function holder',
  conflicts_protocol: 'Conflicts protocol',
  written_policy: 'Written policy',
  investment_principles: 'Statement of investment policy principles',
  own_risk_assessment: 'Own-risk assessment',
  trustee_training: 'Trustee training',
  annual_report: 'Annual report',
  annual_scheme_information: 'Annual scheme information return',
  annual_compliance_statement: 'Annual Compliance Statement',
  new_member_information: 'Information for new members',
  contribution_remittance: 'Contribution remittance',
  benefit_statements: 'Pension Benefit Statements',
};

/**
 * Who carries each duty out, in words, for the scheme year's timeline
 * (docs/decisions/0122-the-scheme-year.md): the trustees answer for the scheme; the employer
 * arranges trustee training (s.59AA); the registered administrator, the broker firm here, makes the
 * annual scheme information return; the employer remits what it deducted
 * (docs/decisions/0136-contribution-remittance.md).
 */
export const OBLIGATION_OWNERS: Record<ObligationKind, string> = {
  scope: 'The trustees',
  trustees: 'The employer and the trustees',
  key_function: 'The trustees',
  fitness_and_probity: 'The trustees',
  key_function_notification: 'The trustees',
  conflicts_protocol: 'The trustees',
  written_policy: 'The trustees',
  investment_principles: 'The trustees',
  own_risk_assessment: 'The trustees',
  trustee_training: 'The employer arranges it; each trustee completes it',
  annual_report: 'The trustees',
  annual_scheme_information: 'The registered administrator',
  annual_compliance_statement: 'The trustees',
  new_member_information: 'The trustees',
  contribution_remittance: 'The employer',
  benefit_statements: 'The registered administrator prepares them; the trustees issue them',
};

export type ObligationStatus = 'ok' | 'due_soon' | 'overdue' | 'incomplete';

/** A standing in words: a badge never relies on its colour alone. */
export const OBLIGATION_STATUS_LABELS: Record<ObligationStatus, string> = {
  ok: 'OK',
  due_soon: 'Due soon',
  overdue: 'Overdue',
  incomplete: 'Incomplete',
};

export interface Obligation {
  kind: ObligationKind;
  /** The register entry it is about (a policy, an ORA report, a holder), where there is one. */
  subjectId?: string;
  dueOn?: string;
  status: ObligationStatus;
  reason: string;
  /** Where the duty comes from (GOVERNANCE_RULES): its label and its citation. */
  label: RuleLabel;
  citation: string;
}

/** A rule's source as an obligation carries it. */
const from = (source: RuleSource) => ({ label: source.label, citation: source.citation });

/** What counts on `today`: appointed by then and not yet ended. */
const serving = (entry: { appointedOn: string; endedOn: string | null }, today: string) =>
  entry.appointedOn <= today && (entry.endedOn === null || entry.endedOn > today);

/**
 * Whether a trustee chairs the board on `today` (GOVERNANCE_RULES.trusteeChair): recorded as the
 * chair, and serving that day. A chair whose appointment has ended chairs no longer, without a
 * write on the day it ends.
 */
export function chairsOn(
  trustee: { chair: boolean; appointedOn: string; endedOn: string | null },
  today: string,
): boolean {
  return trustee.chair && serving(trustee, today);
}

/**
 * Why a trustee cannot be named chair of the board on `today`, in words; null when they can. Only
 * a trustee serving that day chairs it (GOVERNANCE_RULES.trusteeChair); naming them takes the chair
 * from the one who held it, so a second chair is never refused, the chair moves.
 */
export function chairRefusal(
  trustee: { appointedOn: string; endedOn: string | null },
  today: string,
): string | null {
  if (trustee.appointedOn > today) {
    return `A trustee chairs the board once appointed: this one is appointed from ${dateInWords(trustee.appointedOn)}`;
  }
  if (!serving(trustee, today)) {
    return 'A trustee whose appointment has ended cannot chair the board';
  }
  return null;
}

/**
 * Whether two appointments share a day: each runs from its appointment up to, not including, the
 * day it ended.
 */
export function appointmentsOverlap(
  a: { appointedOn: string; endedOn: string | null },
  b: { appointedOn: string; endedOn: string | null },
): boolean {
  return a.appointedOn < (b.endedOn ?? '9999-12-31') && b.appointedOn < (a.endedOn ?? '9999-12-31');
}

/** The same person, as far as the register can tell: the name, without case or extra spaces. */
export function samePerson(a: string, b: string): boolean {
  return personKey(a) === personKey(b);
}

/** A name as `samePerson` compares it: without case or extra spaces, to key a map by person. */
export function personKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-IE');
}

/**
 * The internal-audit rule (Art. 24): the holder of internal audit may hold no other key function
 * in the same scheme. Given the appointments that serve alongside a proposed one, the sentence
 * that refuses it, or null when it may stand.
 */
export function internalAuditConflict(
  proposed: Pick<KeyFunctionHolderFacts, 'function' | 'holderName'>,
  others: readonly Pick<KeyFunctionHolderFacts, 'function' | 'holderName'>[],
): string | null {
  const key = personKey(proposed.holderName);
  const clash = others.some((other) =>
    functionsClash(proposed.function, key, other.function, personKey(other.holderName)),
  );
  return clash
    ? `The holder of the internal audit function may hold no other key function in the same scheme (${GOVERNANCE_RULES.keyFunctions.citation})`
    : null;
}

/**
 * The internal-audit rule for two appointments, each with its holder's `personKey`: the same
 * person holding internal audit and another function. The keys are made once a holder, not once a
 * pair: `toLocaleLowerCase` with a locale is the dearest step of a scheme's assessment.
 */
function functionsClash(a: KeyFunction, aKey: string, b: KeyFunction, bKey: string): boolean {
  return aKey === bKey && a !== b && (a === 'internal_audit' || b === 'internal_audit');
}

function trusteeObligation(trustees: readonly TrusteeFacts[], today: string): Obligation {
  const current = trustees.filter((trustee) => serving(trustee, today));
  const corporate = current.filter((trustee) => trustee.kind === 'corporate');
  const wellRunCorporate = corporate.some(
    (trustee) => (trustee.directorCount ?? 0) >= MINIMUM_CORPORATE_DIRECTORS,
  );
  const ok = current.length >= MINIMUM_TRUSTEES || wellRunCorporate;
  let reason: string;
  if (ok) {
    reason = wellRunCorporate
      ? `A corporate trustee with at least ${MINIMUM_CORPORATE_DIRECTORS} directors runs the scheme`
      : `${current.length} trustees run the scheme`;
  } else if (current.length === 0) {
    reason = `The scheme has no trustee: it needs at least ${MINIMUM_TRUSTEES}, or a corporate trustee with at least ${MINIMUM_CORPORATE_DIRECTORS} directors`;
  } else if (corporate.length > 0) {
    reason = `The scheme's only trustee is a corporate trustee with fewer than ${MINIMUM_CORPORATE_DIRECTORS} directors: it needs another trustee or more directors`;
  } else {
    reason = `The scheme has one trustee: it needs at least ${MINIMUM_TRUSTEES}, or a corporate trustee with at least ${MINIMUM_CORPORATE_DIRECTORS} directors`;
  }
  return {
    kind: 'trustees',
    status: ok ? 'ok' : 'incomplete',
    reason,
    ...from(GOVERNANCE_RULES.trustees),
  };
}

/**
 * Art. 22: those who effectively run the scheme are fit and proper, the trustees as well as the
 * key function holders. One obligation for each serving trustee not yet confirmed.
 */
function trusteeFitnessObligations(trustees: readonly TrusteeFacts[], today: string): Obligation[] {
  return trustees
    .filter((trustee) => serving(trustee, today) && trustee.fitnessAndProbity !== 'confirmed')
    .map((trustee) => ({
      kind: 'fitness_and_probity',
      subjectId: trustee.id,
      status: 'incomplete',
      reason:
        trustee.fitnessAndProbity === 'failed'
          ? `A trustee appointed on ${dateInWords(trustee.appointedOn)} did not meet the fitness and probity standards`
          : `The fitness and probity of a trustee appointed on ${dateInWords(trustee.appointedOn)} is not yet confirmed`,
      ...from(GOVERNANCE_RULES.fitnessAndProbity),
    }));
}

function keyFunctionObligations(facts: SchemeGovernanceFacts, today: string): Obligation[] {
  const obligations: Obligation[] = [];
  const current = facts.keyFunctionHolders.filter((holder) => serving(holder, today));
  for (const fn of requiredKeyFunctions(facts.type)) {
    const holders = current.filter((holder) => holder.function === fn);
    const name = KEY_FUNCTION_NAMES[fn];
    const source = from(
      fn === 'actuarial' ? GOVERNANCE_RULES.actuarialFunction : GOVERNANCE_RULES.keyFunctions,
    );
    if (holders.length === 0) {
      obligations.push({
        kind: 'key_function',
        status: 'incomplete',
        reason: `No one holds the ${name.toLowerCase()} key function`,
        ...source,
      });
      continue;
    }
    for (const holder of holders) {
      obligations.push({
        kind: 'key_function',
        subjectId: holder.id,
        status: 'ok',
        reason: `The ${name.toLowerCase()} key function is held`,
        ...source,
      });
      if (holder.fitnessAndProbity !== 'confirmed') {
        obligations.push({
          kind: 'fitness_and_probity',
          subjectId: holder.id,
          status: 'incomplete',
          reason:
            holder.fitnessAndProbity === 'failed'
              ? `The ${name.toLowerCase()} holder did not meet the fitness and probity standards: appoint another holder`
              : `The fitness and probity of the ${name.toLowerCase()} holder is not yet confirmed`,
          ...from(GOVERNANCE_RULES.fitnessAndProbity),
        });
      }
      if (holder.notifiedOn === null) {
        obligations.push({
          kind: 'key_function_notification',
          subjectId: holder.id,
          status: 'incomplete',
          reason: `The appointment of the ${name.toLowerCase()} holder is not recorded as notified to the Pensions Authority`,
          ...from(GOVERNANCE_RULES.keyFunctionNotification),
        });
      }
      if (holder.alsoServesEmployer && !holder.conflictsProtocol) {
        obligations.push({
          kind: 'conflicts_protocol',
          subjectId: holder.id,
          status: 'incomplete',
          reason: `The ${name.toLowerCase()} holder also carries out this function for the employer: record the written protocol on how conflicts of interest are prevented or managed`,
          ...from(GOVERNANCE_RULES.conflictsProtocol),
        });
      }
    }
  }
  const keyed = current.map((holder) => ({ holder, key: personKey(holder.holderName) }));
  for (const { holder, key } of keyed) {
    if (holder.function !== 'internal_audit') continue;
    const conflict = keyed.some(
      (other) =>
        other.holder.id !== holder.id &&
        functionsClash(holder.function, key, other.holder.function, other.key),
    );
    if (conflict) {
      obligations.push({
        kind: 'key_function',
        subjectId: holder.id,
        status: 'incomplete',
        reason: 'The internal audit holder also holds another key function in this scheme',
        ...from(GOVERNANCE_RULES.keyFunctions),
      });
    }
  }
  return obligations;
}

/** The significant change that brought a review forward to `dueOn`, if one did. */
function changeBehind(dueOn: string, changesOccurredOn: readonly string[]): string | undefined {
  return changesOccurredOn.find((occurredOn) => dueAfterChange(occurredOn) === dueOn);
}

/** The statement of investment policy principles is an obligation of its own kind. */
const obligationKindOf = (kind: PolicyKind): ObligationKind =>
  kind === 'investment_principles' ? 'investment_principles' : 'written_policy';

function policyObligations(facts: SchemeGovernanceFacts, today: string): Obligation[] {
  return requiredPolicyKinds(facts.type).map((kind) => {
    const name = POLICY_KIND_NAMES[kind];
    const source = from(policySource(kind));
    const approved = facts.policies.find(
      (policy) => policy.kind === kind && policy.status === 'approved',
    );
    if (!approved || approved.approvedOn === null || approved.nextReviewDue === null) {
      const drafted = facts.policies.some(
        (policy) => policy.kind === kind && policy.status === 'draft',
      );
      return {
        kind: obligationKindOf(kind),
        status: 'incomplete',
        reason: drafted
          ? `The ${name.toLowerCase()} is drafted but the trustees have not approved it`
          : `The scheme has no approved ${name.toLowerCase()}`,
        ...source,
      } satisfies Obligation;
    }
    const changes = facts.significantChanges
      .filter((change) => change.policyId === approved.id)
      .map((change) => change.occurredOn);
    const dueOn = dueAfterChanges(approved.nextReviewDue, approved.approvedOn, changes);
    const status = dateStatus(dueOn, today);
    const changedOn = dueOn === approved.nextReviewDue ? undefined : changeBehind(dueOn, changes);
    // Art. 30 asks for the statement's review without delay; Art. 21(3), for a policy to be adapted.
    const lawAsks =
      kind === 'investment_principles'
        ? 'the law asks for it to be reviewed without delay'
        : 'the law asks for the policy to be adapted and names no day';
    return {
      kind: obligationKindOf(kind),
      subjectId: approved.id,
      dueOn,
      status,
      reason:
        changedOn !== undefined
          ? `A significant change in the area of the ${name.toLowerCase()} was recorded on ${dateInWords(changedOn)}: ${lawAsks}; this service asks for its review by ${dateInWords(dueOn)}, ${SIGNIFICANT_CHANGE_GRACE_DAYS} days after the change`
          : status === 'overdue'
            ? `The ${name.toLowerCase()} was due for review on ${dateInWords(dueOn)}`
            : `The ${name.toLowerCase()} is next reviewed by ${dateInWords(dueOn)} (at least every ${REVIEW_CYCLE_YEARS} years)`,
      ...source,
    } satisfies Obligation;
  });
}

function oraObligation(facts: SchemeGovernanceFacts, today: string): Obligation {
  const latest = [...facts.oraReports].sort((a, b) =>
    a.performedOn === b.performedOn ? 0 : a.performedOn < b.performedOn ? 1 : -1,
  )[0];
  if (!latest) {
    return {
      kind: 'own_risk_assessment',
      status: 'incomplete',
      reason: 'No own-risk assessment is recorded for the scheme',
      ...from(GOVERNANCE_RULES.ownRiskAssessment),
    };
  }
  const changes = facts.significantChanges
    .filter((change) => change.policyId === null)
    .map((change) => change.occurredOn);
  const dueOn = dueAfterChanges(latest.nextDue, latest.performedOn, changes);
  const status = dateStatus(dueOn, today);
  const changedOn = dueOn === latest.nextDue ? undefined : changeBehind(dueOn, changes);
  return {
    kind: 'own_risk_assessment',
    subjectId: latest.id,
    dueOn,
    status,
    reason:
      changedOn !== undefined
        ? `The scheme's risk profile changed significantly on ${dateInWords(changedOn)}: the law asks for an own-risk assessment without delay; this service shows it as due by ${dateInWords(dueOn)}, ${SIGNIFICANT_CHANGE_GRACE_DAYS} days after the change`
        : status === 'overdue'
          ? `The own-risk assessment was due on ${dateInWords(dueOn)}`
          : `The next own-risk assessment is due by ${dateInWords(dueOn)} (at least once every ${REVIEW_CYCLE_YEARS} years)`,
    ...from(GOVERNANCE_RULES.ownRiskAssessment),
  };
}

const SEVERITY: Record<ObligationStatus, number> = {
  ok: 0,
  due_soon: 1,
  incomplete: 2,
  overdue: 3,
};

/** How bad a standing is, 0 for OK up to overdue: what a list sorted by standing orders by. */
export function severityOf(status: ObligationStatus): number {
  return SEVERITY[status];
}

/** Orders standings worst first, by the ranking overallStatus uses. */
export function worstFirst(a: ObligationStatus, b: ObligationStatus): number {
  return SEVERITY[b] - SEVERITY[a];
}

/**
 * A scheme's standing: the worst of its obligations. A passed due date ranks above a gap in a
 * register, because it is a deadline the trustees have already missed
 * (docs/decisions/0059-governance-rules.md).
 */
export function overallStatus(obligations: readonly Obligation[]): ObligationStatus {
  let worst: ObligationStatus = 'ok';
  for (const obligation of obligations) {
    if (SEVERITY[obligation.status] > SEVERITY[worst]) worst = obligation.status;
  }
  return worst;
}

/** Every obligation of one scheme on `today`, with its standing, reason and citation. */
export function assessScheme(
  facts: SchemeGovernanceFacts,
  today: string,
): { status: ObligationStatus; obligations: Obligation[] } {
  const outOfScope = outOfScopeReason(facts);
  if (outOfScope !== null) {
    return {
      status: 'ok',
      obligations: [
        { kind: 'scope', status: 'ok', reason: outOfScope, ...from(GOVERNANCE_RULES.scope) },
      ],
    };
  }
  const obligations = [
    trusteeObligation(facts.trustees, today),
    ...trusteeFitnessObligations(facts.trustees, today),
    ...keyFunctionObligations(facts, today),
    ...policyObligations(facts, today),
    oraObligation(facts, today),
  ];
  return { status: overallStatus(obligations), obligations };
}
