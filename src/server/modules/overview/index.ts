/** The overview module's public face: all that other modules and the composition root may import from it. */
export { createOverviewModule } from './overview.module.js';
