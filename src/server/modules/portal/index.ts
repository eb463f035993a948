/** The portal module's public face: all that other modules and the composition root may import from it. */
export { createPortalModule } from './portal.module.js';
