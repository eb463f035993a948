/** The gdpr module's public face: all that other modules and the composition root may import from it. */

export { gdprRoutes } from './gdpr.routes.js';
export { createMemberExportService } from './gdpr-export.service.js';
