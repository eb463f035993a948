import {
  addYears,
  assessScheme,
  dateStatus,
  governanceApplies,
  isReminder,
  type Obligation,
  type ObligationStatus,
  overallStatus,
  REVIEW_CYCLE_YEARS,
  type SchemeGovernanceFacts,
} from './governance-rules.js';
import { dateInWords, periodInWords } from './irish-dates.js';
import {
  addToMonth,
  monthOfDay,
  REMITTANCE_DAYS_AFTER_MONTH,
  remittanceDueOn,
} from './remittance-rules.js';
import {
  FILING_KIND_NAMES,
  FILING_KINDS,
  type FilingKind,
  filingDueOn,
  latestYearEnd,
  type SchemeYearFacts,
  schemeYearObligations,
  TRAINING_EVERY_YEARS,
  yearEndIn,
} from './scheme-year-rules.js';
import { administratorDate, membersByFor } from './statement-rules.js';

/**
 * A scheme's whole standing (docs/decisions/0059-governance-rules.md,
 * docs/decisions/0122-the-scheme-year.md): its governance registers (governance-rules.ts) and its
 * scheme year's dated duties (scheme-year-rules.ts), each duty with its label and source. A scheme
 * is "ok" only when every tracked duty is. The compliance view, the calendar, the dashboard, the
 * reminders and the evidence pack all ask this one function.
 */
export type SchemeComplianceFacts = SchemeGovernanceFacts & Omit<SchemeYearFacts, 'trustees'>;

export function assessCompliance(
  facts: SchemeComplianceFacts,
  today: string,
): { status: ObligationStatus; obligations: Obligation[] } {
  const governance = assessScheme(facts, today);
  if (!governanceApplies(facts)) return governance;
  const obligations: Obligation[] = [
    ...governance.obligations,
    ...schemeYearObligations(facts, today),
  ];
  return { status: overallStatus(obligations), obligations };
}

const isFilingKind = (kind: string): kind is FilingKind =>
  (FILING_KINDS as readonly string[]).includes(kind);

/**
 * What the compliance calendar lists for one scheme in the window `from` to `to`
 * (docs/decisions/0059-governance-rules.md, "Later"): first every duty still outstanding from
 * before the window, by the standing the dashboard and the reminders use (`isReminder`), so an
 * overdue duty is listed whatever the window and a duty done is not; then every date a duty falls
 * due in the window, its next date and each later one of a recurring duty (`laterDueDates`).
 */
export function calendarObligations(
  facts: SchemeComplianceFacts,
  today: string,
  window: { from: string; to: string },
): Array<Obligation & { dueOn: string }> {
  const listed: Array<Obligation & { dueOn: string }> = [];
  const obligations = assessCompliance(facts, today).obligations;
  // A filing owed for several periods (filingObligations): only the latest period's runs on to
  // the later dates, so no period is listed twice.
  const latestFiling = new Map<string, string>();
  for (const { kind, dueOn } of obligations) {
    if (!isFilingKind(kind) || dueOn === undefined) continue;
    const latest = latestFiling.get(kind);
    if (latest === undefined || dueOn > latest) latestFiling.set(kind, dueOn);
  }
  for (const obligation of obligations) {
    const { dueOn } = obligation;
    if (dueOn === undefined) continue;
    if (dueOn < window.from) {
      if (isReminder(obligation)) listed.push({ ...obligation, dueOn });
    } else if (dueOn <= window.to) {
      listed.push({ ...obligation, dueOn });
    }
    if (isFilingKind(obligation.kind) && latestFiling.get(obligation.kind) !== dueOn) continue;
    for (const later of laterDueDates({ ...obligation, dueOn }, facts, today, window.to)) {
      if (later.dueOn >= window.from) listed.push(later);
    }
  }
  return listed;
}

/**
 * The dates a recurring duty falls due after `obligation`'s, up to `to`, each counted as if the
 * one before were done on its day: a review every REVIEW_CYCLE_YEARS counted from the day it was
 * due (GOVERNANCE_RULES.reviewCountedFromDueDate), trustee training every TRAINING_EVERY_YEARS at
 * the latest, each filing and each year's benefit statements a year on, and each month's
 * remittance. Only days after `today`: one already past is the duty's own date, not a later one.
 */
export function laterDueDates(
  obligation: Obligation & { dueOn: string },
  facts: Pick<SchemeComplianceFacts, 'yearEnd'>,
  today: string,
  to: string,
): Array<Obligation & { dueOn: string }> {
  const after = obligation.dueOn > today ? obligation.dueOn : today;
  const label = { label: obligation.label, citation: obligation.citation };
  const entry = (dueOn: string, reason: string, subjectId?: string) => ({
    kind: obligation.kind,
    ...(subjectId === undefined ? {} : { subjectId }),
    dueOn,
    status: dateStatus(dueOn, today),
    reason,
    ...label,
  });
  const within = (dueOn: string) => dueOn > after && dueOn <= to;
  const kind = obligation.kind;
  const listed: Array<Obligation & { dueOn: string }> = [];
  if (
    kind === 'written_policy' ||
    kind === 'investment_principles' ||
    kind === 'own_risk_assessment' ||
    kind === 'trustee_training'
  ) {
    const years = kind === 'trustee_training' ? TRAINING_EVERY_YEARS : REVIEW_CYCLE_YEARS;
    const what = kind === 'trustee_training' ? 'training' : 'review';
    for (let cycle = 1; addYears(obligation.dueOn, years * cycle) <= to; cycle += 1) {
      const dueOn = addYears(obligation.dueOn, years * cycle);
      if (!within(dueOn)) continue;
      listed.push(
        entry(
          dueOn,
          `The next ${what} after the one due by ${dateInWords(obligation.dueOn)} is due by ${dateInWords(dueOn)} at the latest, ${years} years on; sooner if that one is done early`,
          obligation.subjectId,
        ),
      );
    }
    return listed;
  }
  const firstYear = Number(obligation.dueOn.slice(0, 4)) - 1;
  const lastYear = Number(to.slice(0, 4));
  if (isFilingKind(kind)) {
    for (let year = firstYear; year <= lastYear; year += 1) {
      const compliance = kind === 'annual_compliance_statement';
      const periodEnd = compliance ? yearEndIn('12-31', year) : yearEndIn(facts.yearEnd, year);
      const dueOn = filingDueOn(kind, periodEnd);
      if (!within(dueOn)) continue;
      const period = compliance ? `${year}` : `the year ended ${dateInWords(periodEnd)}`;
      listed.push(
        entry(dueOn, `${FILING_KIND_NAMES[kind]} for ${period}: due by ${dateInWords(dueOn)}`),
      );
    }
    return listed;
  }
  if (kind === 'benefit_statements') {
    const tracked = latestYearEnd(facts.yearEnd, today);
    for (let year = firstYear; year <= lastYear; year += 1) {
      const periodEnd = yearEndIn(facts.yearEnd, year);
      const dueOn = membersByFor(periodEnd);
      if (periodEnd <= tracked || !within(dueOn)) continue;
      listed.push(
        entry(
          dueOn,
          `Benefit statements for the year to ${dateInWords(periodEnd)} are due to members by ${dateInWords(dueOn)}, to the trustees by ${dateInWords(administratorDate(dueOn))}`,
        ),
      );
    }
    return listed;
  }
  if (kind === 'contribution_remittance') {
    // A month's deductions are due the month after it: the month before the duty's date is its own.
    let month = monthOfDay(obligation.dueOn);
    for (let dueOn = remittanceDueOn(month); dueOn <= to; dueOn = remittanceDueOn(month)) {
      if (within(dueOn)) {
        listed.push(
          entry(
            dueOn,
            `The deductions for ${periodInWords(month)} are due at the scheme by ${dateInWords(dueOn)}, ${REMITTANCE_DAYS_AFTER_MONTH} days after the month’s end`,
          ),
        );
      }
      month = addToMonth(month, 1);
    }
  }
  return listed;
}
