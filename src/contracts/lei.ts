import { z } from 'zod';
import { text } from './text.js';

/**
 * The Legal Entity Identifier (ISO 17442) as the register of information holds it
 * (docs/decisions/0139-dora-ict-incidents.md, "The register of information"): one rule for the
 * firm's, its schemes' and its ICT providers' LEIs, applied by the API and by the forms.
 */

const LEI_MESSAGE = 'An LEI is 20 characters: 18 capital letters or digits, then two digits';

/**
 * Why `value` cannot be a Legal Entity Identifier, or null when it can. An LEI (ISO 17442) is 18
 * capital letters or digits and two check digits, the shape the register of information expects
 * of every LEI it holds (the firm's, its schemes', its providers'); its check digits are not
 * computed.
 */
export function leiProblem(value: string): string | null {
  return /^[A-Z0-9]{18}[0-9]{2}$/.test(value) ? null : LEI_MESSAGE;
}

/**
 * An LEI as a field (a scheme's, the firm's): spaces dropped and letters put in capitals, as
 * people copy it, then held to `leiProblem`.
 */
export const leiText = text({ max: 40, tooLong: LEI_MESSAGE }).transform((value, context) => {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  const problem = leiProblem(compact);
  if (problem === null) return compact;
  context.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});
