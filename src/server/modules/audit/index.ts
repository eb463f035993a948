/** The audit module's public face: all that other modules and the composition root may import from it. */

export { createAuditModule } from './audit.module.js';
export type { AuditReadService } from './audit.service.js';
export { irishLocalTime } from './audit-csv.rules.js';
