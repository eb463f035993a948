import { addDays, formatIrishDate } from './irish-dates.js';
import type { SchemeType } from './organisation.js';

/**
 * The governance rules of IORP II as this product applies them (domain.md, "Governance under
 * IORP II"): which key functions and written policies a scheme needs, how often each is reviewed,
 * when the own-risk assessment (ORA) falls due, and when reminders go out. Every period, every list
 * of required functions or policies and every citation lives here and nowhere else: the API, the
 * reminders job and the web UI all ask this module. The functions are pure: "today" is a parameter,
 * so each rule is tested against worked dates (test/governance/rules.test.ts).
 *
 * Citations name the Directive's article, which the Pensions Act 1990 carries into Irish law as
 * amended by the European Union (Occupational Pension Schemes) Regulations 2021 (S.I. No. 128 of
 * 2021). Section numbers of the amended Act are not given where the project has not checked them
 * against the official consolidated text (docs/decisions/0059-governance-rules.md).
 */

const TRANSPOSED = 'Pensions Act 1990 as amended by S.I. No. 128/2021';

/** Where each rule comes from. */
export const CITATIONS = {
  scope: 'S.I. No. 128/2021 reg. 3',
  trustees: `Directive (EU) 2016/2341 Art. 21(4); ${TRANSPOSED}`,
  keyFunctions: `Directive (EU) 2016/2341 Art. 24; ${TRANSPOSED}`,
  fitnessAndProbity: `Directive (EU) 2016/2341 Art. 22; ${TRANSPOSED}`,
  conflictsProtocol: `Directive (EU) 2016/2341 Art. 24; ${TRANSPOSED}`,
  writtenPolicies: `Directive (EU) 2016/2341 Art. 21(3); ${TRANSPOSED}`,
  remunerationPolicy: `Directive (EU) 2016/2341 Art. 23; ${TRANSPOSED}`,
  ownRiskAssessment: `Directive (EU) 2016/2341 Art. 28(1); ${TRANSPOSED}`,
} as const;

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
] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export const POLICY_KIND_NAMES: Record<PolicyKind, string> = {
  risk_management: 'Risk management policy',
  internal_audit: 'Internal audit policy',
  remuneration: 'Remuneration policy',
  actuarial: 'Actuarial policy',
  outsourcing: 'Outsourcing policy',
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

/** Art. 21(4): effectively run by at least two persons. */
export const MINIMUM_TRUSTEES = 2;
/** A corporate trustee counts as two persons when it has at least this many directors. */
export const MINIMUM_CORPORATE_DIRECTORS = 2;
/** Art. 21(3), Art. 23, Art. 28(1): written policies and the ORA at least every three years. */
export const REVIEW_CYCLE_YEARS = 3;
/** domain.md: reminders 60, 30, 14 and 7 days before a due date, and on the day. */
export const REMINDER_DAYS_BEFORE = [60, 30, 14, 7, 0] as const;
/** domain.md: and again every week while overdue. */
export const OVERDUE_REMINDER_INTERVAL_DAYS = 7;
/** A date is "due soon" from the first reminder on. */
export const DUE_SOON_DAYS = REMINDER_DAYS_BEFORE[0];

/**
 * IORP II governs occupational schemes and trust RACs (S.I. No. 128/2021 reg. 3). A PRSA is a
 * contract with its provider, not a trust run by trustees, so none of these registers applies to
 * it. An RAC administered here is taken to be a trust RAC (docs/decisions/0059-governance-rules.md).
 */
export function governanceApplies(type: SchemeType): boolean {
  return type !== 'PRSA';
}

/**
 * The key functions a scheme must fill: risk management and internal audit always; actuarial where
 * applicable, which for the schemes kept here means a defined-benefit scheme (it carries liabilities
 * that need actuarial calculation; DC schemes and RACs carry no guarantee).
 */
export function requiredKeyFunctions(type: SchemeType): readonly KeyFunction[] {
  if (!governanceApplies(type)) return [];
  return type === 'DB'
    ? ['risk_management', 'internal_audit', 'actuarial']
    : ['risk_management', 'internal_audit'];
}

/**
 * The written policies a scheme must have approved: risk management, internal audit and
 * remuneration always; actuarial where relevant (DB, as above); outsourcing where activities are
 * outsourced, which is always the case for a scheme administered on this platform: the broker firm
 * is itself a service provider to the trustees.
 */
export function requiredPolicyKinds(type: SchemeType): readonly PolicyKind[] {
  if (!governanceApplies(type)) return [];
  return type === 'DB'
    ? ['risk_management', 'internal_audit', 'remuneration', 'actuarial', 'outsourcing']
    : ['risk_management', 'internal_audit', 'remuneration', 'outsourcing'];
}

/** The citation of a policy kind's obligation. */
export function policyCitation(kind: PolicyKind): string {
  return kind === 'remuneration' ? CITATIONS.remunerationPolicy : CITATIONS.writtenPolicies;
}

/** The same calendar day `years` later; 29 February becomes 28 February in a common year. */
export function addYears(isoDate: string, years: number): string {
  const year = Number(isoDate.slice(0, 4)) + years;
  const month = isoDate.slice(5, 7);
  let day = isoDate.slice(8, 10);
  if (month === '02' && day === '29' && !isLeapYear(year)) day = '28';
  return `${String(year).padStart(4, '0')}-${month}-${day}`;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const earlier = (a: string, b: string) => (a <= b ? a : b);

/**
 * When the next review falls due after one completed on `completedOn`. domain.md: a review is due
 * counting from when it was due, not from when the last one was finished late; one finished early
 * starts the cycle early, since the next must come within three years of it. The first review (no
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
 * The due date once significant changes are taken into account: a recorded significant change
 * makes the review (or the ORA) due at once, on the day it occurred, unless the last review came
 * after it (Art. 21(3), Art. 28(1)).
 */
export function dueAfterChanges(
  cycleDueOn: string,
  reviewedOn: string,
  changesOccurredOn: readonly string[],
): string {
  let due = cycleDueOn;
  for (const occurredOn of changesOccurredOn) {
    if (occurredOn > reviewedOn) due = earlier(due, occurredOn);
  }
  return due;
}

export type DateStatus = 'ok' | 'due_soon' | 'overdue';

/** Overdue from the day after the due date; due soon within the reminder window. */
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

export function dateStatus(dueOn: string, today: string): DateStatus {
  if (today > dueOn) return 'overdue';
  if (addDays(today, DUE_SOON_DAYS) >= dueOn) return 'due_soon';
  return 'ok';
}

/**
 * The reminder stage a due date is at on `today`, or null before the first reminder: the latest
 * of 60, 30, 14, 7 days before and the day itself that has come, then one stage for each whole
 * week overdue. A job that missed days sends only the latest stage, never the ones it slept through.
 */
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
  'conflicts_protocol',
  'written_policy',
  'own_risk_assessment',
] as const;
export type ObligationKind = (typeof OBLIGATION_KINDS)[number];

export const OBLIGATION_NAMES: Record<ObligationKind, string> = {
  scope: 'Scope of IORP II',
  trustees: 'Trustees',
  key_function: 'Key function',
  fitness_and_probity: 'Fitness and probity',
  conflicts_protocol: 'Conflicts protocol',
  written_policy: 'Written policy',
  own_risk_assessment: 'Own-risk assessment',
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
  citation: string;
}

/** What counts on `today`: appointed by then and not yet ended. */
const serving = (entry: { appointedOn: string; endedOn: string | null }, today: string) =>
  entry.appointedOn <= today && (entry.endedOn === null || entry.endedOn > today);

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
  const normal = (name: string) => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-IE');
  return normal(a) === normal(b);
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
  const clash = others.some(
    (other) =>
      samePerson(other.holderName, proposed.holderName) &&
      other.function !== proposed.function &&
      (other.function === 'internal_audit' || proposed.function === 'internal_audit'),
  );
  return clash
    ? `The holder of the internal audit function may hold no other key function in the same scheme (${CITATIONS.keyFunctions})`
    : null;
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
    citation: CITATIONS.trustees,
  };
}

function keyFunctionObligations(facts: SchemeGovernanceFacts, today: string): Obligation[] {
  const obligations: Obligation[] = [];
  const current = facts.keyFunctionHolders.filter((holder) => serving(holder, today));
  for (const fn of requiredKeyFunctions(facts.type)) {
    const holders = current.filter((holder) => holder.function === fn);
    const name = KEY_FUNCTION_NAMES[fn];
    if (holders.length === 0) {
      obligations.push({
        kind: 'key_function',
        status: 'incomplete',
        reason: `No one holds the ${name.toLowerCase()} key function`,
        citation: CITATIONS.keyFunctions,
      });
      continue;
    }
    for (const holder of holders) {
      obligations.push({
        kind: 'key_function',
        subjectId: holder.id,
        status: 'ok',
        reason: `The ${name.toLowerCase()} key function is held`,
        citation: CITATIONS.keyFunctions,
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
          citation: CITATIONS.fitnessAndProbity,
        });
      }
      if (holder.alsoServesEmployer && !holder.conflictsProtocol) {
        obligations.push({
          kind: 'conflicts_protocol',
          subjectId: holder.id,
          status: 'incomplete',
          reason: `The ${name.toLowerCase()} holder also carries out this function for the employer: record the written protocol on how conflicts of interest are prevented or managed`,
          citation: CITATIONS.conflictsProtocol,
        });
      }
    }
  }
  for (const holder of current) {
    const conflict = internalAuditConflict(
      holder,
      current.filter((other) => other.id !== holder.id),
    );
    if (conflict !== null && holder.function === 'internal_audit') {
      obligations.push({
        kind: 'key_function',
        subjectId: holder.id,
        status: 'incomplete',
        reason: 'The internal audit holder also holds another key function in this scheme',
        citation: CITATIONS.keyFunctions,
      });
    }
  }
  return obligations;
}

function policyObligations(facts: SchemeGovernanceFacts, today: string): Obligation[] {
  return requiredPolicyKinds(facts.type).map((kind) => {
    const name = POLICY_KIND_NAMES[kind];
    const citation = policyCitation(kind);
    const approved = facts.policies.find(
      (policy) => policy.kind === kind && policy.status === 'approved',
    );
    if (!approved || approved.approvedOn === null || approved.nextReviewDue === null) {
      const drafted = facts.policies.some(
        (policy) => policy.kind === kind && policy.status === 'draft',
      );
      return {
        kind: 'written_policy',
        status: 'incomplete',
        reason: drafted
          ? `The ${name.toLowerCase()} is drafted but the trustees have not approved it`
          : `The scheme has no approved ${name.toLowerCase()}`,
        citation,
      } satisfies Obligation;
    }
    const changes = facts.significantChanges
      .filter((change) => change.policyId === approved.id)
      .map((change) => change.occurredOn);
    const dueOn = dueAfterChanges(approved.nextReviewDue, approved.approvedOn, changes);
    const status = dateStatus(dueOn, today);
    const afterChange = dueOn !== approved.nextReviewDue;
    return {
      kind: 'written_policy',
      subjectId: approved.id,
      dueOn,
      status,
      reason: afterChange
        ? `A significant change was recorded on ${formatIrishDate(dueOn)}: the ${name.toLowerCase()} must be reviewed at once`
        : status === 'overdue'
          ? `The ${name.toLowerCase()} was due for review on ${formatIrishDate(dueOn)}`
          : `The ${name.toLowerCase()} is next reviewed by ${formatIrishDate(dueOn)} (every ${REVIEW_CYCLE_YEARS} years)`,
      citation,
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
      citation: CITATIONS.ownRiskAssessment,
    };
  }
  const changes = facts.significantChanges
    .filter((change) => change.policyId === null)
    .map((change) => change.occurredOn);
  const dueOn = dueAfterChanges(latest.nextDue, latest.performedOn, changes);
  const status = dateStatus(dueOn, today);
  return {
    kind: 'own_risk_assessment',
    subjectId: latest.id,
    dueOn,
    status,
    reason:
      dueOn !== latest.nextDue
        ? `The scheme's risk profile changed significantly on ${formatIrishDate(dueOn)}: an own-risk assessment is due without delay`
        : status === 'overdue'
          ? `The own-risk assessment was due on ${formatIrishDate(dueOn)}`
          : `The next own-risk assessment is due by ${formatIrishDate(dueOn)} (at least every ${REVIEW_CYCLE_YEARS} years)`,
    citation: CITATIONS.ownRiskAssessment,
  };
}

const SEVERITY: Record<ObligationStatus, number> = {
  ok: 0,
  due_soon: 1,
  incomplete: 2,
  overdue: 3,
};

/** Orders standings worst first, by the ranking overallStatus uses. */
export function worstFirst(a: ObligationStatus, b: ObligationStatus): number {
  return SEVERITY[b] - SEVERITY[a];
}

/**
 * A scheme's standing: the worst of its obligations. A passed due date ranks above a gap in a
 * register, because it is a deadline the trustees have already missed (docs/decisions/0059-governance-rules.md).
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
  if (!governanceApplies(facts.type)) {
    return {
      status: 'ok',
      obligations: [
        {
          kind: 'scope',
          status: 'ok',
          reason:
            'A PRSA is a contract with its provider, not a trust: the IORP II governance registers do not apply to it',
          citation: CITATIONS.scope,
        },
      ],
    };
  }
  const obligations = [
    trusteeObligation(facts.trustees, today),
    ...keyFunctionObligations(facts, today),
    ...policyObligations(facts, today),
    oraObligation(facts, today),
  ];
  return { status: overallStatus(obligations), obligations };
}
