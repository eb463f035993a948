import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { gdprRoutes } from './gdpr.routes.js';
import { createMemberExportService } from './gdpr-export.service.js';

/** What the GDPR gives a member (docs/decisions/0128-modules-compose-their-services.md). */
export function createGdprModule({ database, audit, now }: PlatformParts): ServerModule {
  const gdprExport = createMemberExportService({ database, audit, now });
  return {
    services: {},
    routes: async (app) => {
      await app.register(gdprRoutes, { gdprExport });
    },
  };
}
