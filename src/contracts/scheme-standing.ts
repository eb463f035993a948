import {
  assessScheme,
  governanceApplies,
  type Obligation,
  type ObligationStatus,
  overallStatus,
  type SchemeGovernanceFacts,
} from './governance-rules.js';
import { type SchemeYearFacts, schemeYearObligations } from './scheme-year-rules.js';

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
