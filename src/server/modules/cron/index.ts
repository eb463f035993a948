/** The cron module's public face: all that other modules and the composition root may import from it. */
export { cronRoutes } from './cron.routes.js';
export { outboxJob } from './outbox.job.js';
