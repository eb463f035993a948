/** The brokers module's public face: all that other modules and the composition root may import from it. */
export { brokersRoutes } from './brokers.routes.js';
export { brokerParams } from './brokers.schemas.js';
export { createBrokersService } from './brokers.service.js';
