import { z } from 'zod';
import { FIELD_MESSAGES } from './plain-english.js';

/**
 * A rate of salary, the one rule for the service and the web UI
 * (docs/decisions/0132-employer-and-scheme-details.md): kept and sent as whole basis points
 * (5% is 500, 7.25% is 725), never a floating-point number, as the automatic-enrolment rates are
 * (auto-enrolment-rules.ts); typed as a percentage with at most two decimals, and shown as one.
 */

/** 100% of salary. */
export const MAX_RATE_BASIS_POINTS = 10_000;

/** A rate in a request body: whole basis points, 0 to 100%. */
export const rateBasisPoints = z
  .number({ error: FIELD_MESSAGES.contributionRate })
  .int(FIELD_MESSAGES.contributionRate)
  .min(0, FIELD_MESSAGES.contributionRate)
  .max(MAX_RATE_BASIS_POINTS, FIELD_MESSAGES.contributionRate);

/** Longer text is refused before the pattern runs (docs/decisions/0034-linear-patterns.md). */
const MAX_PERCENT_TEXT = 12;
/** `5`, `7.5`, `5.25`, each with a `%` after it or not: no sign, no comma, no exponent. */
const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?\s?%?$/;

/**
 * A percentage as a person types it, read into whole basis points without floating point: `5`
 * is 500, `7.5` and `7.50%` are 750. Null for anything else (`5.125`, `5,5`, `-1`, `.5`); the
 * range is the request schema's to judge (`rateBasisPoints`), so `150` reads as 15000 and is
 * refused there, in its words.
 */
export function readPercent(typed: string): number | null {
  const trimmed = typed.trim();
  if (trimmed.length > MAX_PERCENT_TEXT) return null;
  const match = PERCENT.exec(trimmed);
  if (!match) return null;
  const whole = Number(match[1]);
  const hundredths = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + hundredths;
}

/** Basis points as a percentage is typed: 500 is `5`, 750 is `7.5`, 725 is `7.25`. */
export function percentEntry(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const hundredths = basisPoints % 100;
  if (hundredths === 0) return String(whole);
  return `${whole}.${String(hundredths).padStart(2, '0').replace(/0$/, '')}`;
}

/** Basis points as a percentage is read: `5%`, `7.5%`, `7.25%`. */
export function percentInWords(basisPoints: number): string {
  return `${percentEntry(basisPoints)}%`;
}
