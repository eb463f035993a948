/** The investments module's public face: all that other modules and the composition root may import from it. */

export {
  everyTransactionOf,
  type HoldingsOnDay,
  holdingsOn,
  memberMoneyOn,
  type TransactionRow,
  type ValuedFund,
} from './holdings.data.js';
export type { HoldingsService } from './holdings.service.js';
export { investmentsJob } from './investments.job.js';
export { createInvestmentsModule } from './investments.module.js';
export { choicesOf } from './ledger.data.js';
export { nextMonth, placementOf } from './ledger.rules.js';
export { settle } from './ledger.service.js';
export type { SwitchesService } from './switches.service.js';
