import { z } from 'zod';
import { period } from '../../../contracts/contributions.js';
import { idText } from '../../../contracts/text.js';

export {
  PAYROLL_ROWS_MAX,
  type PayrollInput,
  type PayrollView,
  payrollInput,
  payrollSaved,
  payrollView,
  periodTotals,
} from '../../../contracts/contributions.js';

export const payrollParams = z.object({ id: idText, period });

export const periodTotalsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(24),
  /** The period to continue before, as the previous page's `nextCursor` gave it. */
  cursor: period.optional(),
});
