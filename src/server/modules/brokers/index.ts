/** The brokers module's public face: all that other modules and the composition root may import from it. */

export { createBrokersModule } from './brokers.module.js';
export { brokerParams } from './brokers.schemas.js';
