import { counted } from '../../../contracts/plain-english';
import { formatPeriod } from '../../format';

/**
 * What "Copy <last month>" on the payroll grid tells the person
 * (docs/decisions/0048-contributions-as-a-payroll-grid.md): a success only when amounts were
 * copied; otherwise, in a neutral tone, why there was nothing to copy: the month before has no
 * amounts recorded, or none for a cell still empty here.
 */
export function copyReport(
  copied: number,
  lastMonthAmounts: number,
  lastPeriod: string,
): { tone: 'success' | 'info'; message: string } {
  const last = formatPeriod(lastPeriod);
  if (copied > 0) {
    return {
      tone: 'success',
      message: `${counted(copied, 'amount')} copied from ${last}: check them, then save.`,
    };
  }
  if (lastMonthAmounts === 0) {
    return {
      tone: 'info',
      message: `${last} has no amounts recorded, so there is nothing to copy.`,
    };
  }
  return {
    tone: 'info',
    message: `${last} has no amount for a cell still empty here: nothing copied.`,
  };
}
