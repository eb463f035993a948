/** The data-breaches module's public face: all that other modules and the composition root may import from it. */
export { createDataBreachesModule } from './data-breaches.module.js';
export type { DataBreachesService } from './data-breaches.service.js';
