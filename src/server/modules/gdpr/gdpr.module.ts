import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { dataRequestsRoutes } from './data-requests.routes.js';
import { createDataRequestsService, type DataRequestsService } from './data-requests.service.js';
import { gdprRoutes } from './gdpr.routes.js';
import { createMemberExportService } from './gdpr-export.service.js';
import { rectificationRoutes } from './rectification.routes.js';
import { createRectificationService } from './rectification.service.js';

/**
 * What the GDPR gives a member: the export of their data and the register of their requests
 * (docs/decisions/0128-modules-compose-their-services.md, 0137-data-subject-requests.md).
 */
export function createGdprModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ dataRequests: DataRequestsService }> {
  const gdprExport = createMemberExportService({ database, audit, now });
  const dataRequests = createDataRequestsService({ database, audit, now });
  const rectification = createRectificationService({ database, audit, now });
  return {
    services: { dataRequests },
    routes: async (app) => {
      await app.register(gdprRoutes, { gdprExport });
      await app.register(dataRequestsRoutes, { dataRequests });
      await app.register(rectificationRoutes, { rectification });
    },
  };
}
