/** The funds module's public face: all that other modules and the composition root may import from it. */
export { allocationsOfMember, findFund } from './funds.data.js';
export { createFundsModule } from './funds.module.js';
export type { FundsService } from './funds.service.js';
