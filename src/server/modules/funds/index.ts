/** The funds module's public face: all that other modules and the composition root may import from it. */
export { allocationsOfMember } from './funds.data.js';
export { fundsRoutes } from './funds.routes.js';
export type { FundsService } from './funds.service.js';
export { createFundsService } from './funds.service.js';
