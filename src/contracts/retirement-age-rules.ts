import type { SchemeType } from './organisation.js';
import { guidance, type RuleSource } from './rule-sources.js';

/**
 * The ages between which benefits are normally taken, by type of scheme, each with its source. They
 * live here and nowhere else, so that no page, rule or summary writes an age of its own: a PRSA has
 * no upper age in the Pensions Authority's current information, and 75 is never assumed for it. The
 * windows are published guidance on the tax rules (Revenue) and on PRSAs (the Pensions Authority),
 * labelled so; the project has not cited the sections of the Taxes Consolidation Act 1997 behind
 * them (docs/decisions/0120-rules-labelled-law-guidance-policy.md).
 */
export interface RetirementAgeWindow extends RuleSource {
  /** The youngest age at which benefits are normally taken. */
  from: number;
  /** The oldest, or null where there is none. */
  to: number | null;
}

const OCCUPATIONAL: RetirementAgeWindow = {
  from: 60,
  to: 70,
  ...guidance('Revenue’s Pensions Manual, on occupational pension schemes'),
};

export const RETIREMENT_AGE_RULES: Record<SchemeType, RetirementAgeWindow> = {
  DB: OCCUPATIONAL,
  DC: OCCUPATIONAL,
  RAC: {
    from: 60,
    to: 75,
    ...guidance('Revenue’s Pensions Manual, on retirement annuity contracts'),
  },
  PRSA: {
    from: 60,
    to: null,
    ...guidance(
      'The Pensions Authority’s information on PRSAs: benefits from age 60, with no upper age',
    ),
  },
};

/** Whether `age` lies in the window of a scheme type, both ends included. */
export function inRetirementAgeWindow(type: SchemeType, age: number): boolean {
  const window = RETIREMENT_AGE_RULES[type];
  return age >= window.from && (window.to === null || age <= window.to);
}
