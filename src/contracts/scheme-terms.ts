/**
 * What a scheme's terms for its benefit statements are read as
 * (docs/decisions/0141-pension-benefit-statements.md): the normal retirement age it may give, and a
 * DB scheme's accrual rate. A module of its own with no imports, so that the scheme's request
 * schemas (organisation.ts) and the statement rules (statement-rules.ts) share it without either
 * importing the other.
 */

/**
 * The normal retirement ages a scheme may give: from 50 (the earliest age the tax rules allow on
 * leaving employment) to 75 (the oldest of any scheme type's window, an RAC's:
 * retirement-age-rules.ts).
 */
export const NORMAL_RETIREMENT_AGES = { from: 50, to: 75 } as const;

/** An accrual rate as written, `"1/60"`: a fraction of salary for each year of service. */
export interface AccrualRate {
  numerator: number;
  denominator: number;
}

const ACCRUAL = /^([1-9]\d{0,2})\/([1-9]\d{0,3})$/;

/** `"1/60"` read, or null where it is not a fraction below one. */
export function readAccrualRate(text: string): AccrualRate | null {
  const match = ACCRUAL.exec(text.trim());
  if (!match) return null;
  const numerator = Number(match[1]);
  const denominator = Number(match[2]);
  return numerator < denominator ? { numerator, denominator } : null;
}
