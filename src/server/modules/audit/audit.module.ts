import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { auditRoutes } from './audit.routes.js';
import { type AuditReadService, createAuditReadService } from './audit.service.js';

/** The audit log as people read it (docs/decisions/0128-modules-compose-their-services.md). */
export function createAuditModule({
  database,
  audit,
}: PlatformParts): ServerModule<{ auditRead: AuditReadService }> {
  const auditRead = createAuditReadService({ database, audit });
  return {
    services: { auditRead },
    routes: async (app) => {
      await app.register(auditRoutes, { auditRead });
    },
  };
}
