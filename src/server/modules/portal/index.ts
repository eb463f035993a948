/** The portal module's public face: all that other modules and the composition root may import from it. */

export { createMemberPageService } from './member-page.service.js';
export { portalRoutes } from './portal.routes.js';
export { createPortalService } from './portal.service.js';
