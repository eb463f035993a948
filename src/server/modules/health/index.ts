/** The health module's public face: all that other modules and the composition root may import from it. */
export { healthRoutes } from './health.routes.js';
