/** The metrics module's public face: all that other modules and the composition root may import from it. */
export { metricsRoutes } from './metrics.routes.js';
export { createMetrics } from './metrics.service.js';
