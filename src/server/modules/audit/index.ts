/** The audit module's public face: all that other modules and the composition root may import from it. */

export { auditRoutes } from './audit.routes.js';
export type { AuditReadService } from './audit.service.js';
export { createAuditReadService } from './audit.service.js';
export { irishLocalTime } from './audit-csv.rules.js';
