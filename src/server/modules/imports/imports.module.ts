import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { importsRoutes } from './imports.routes.js';
import { createImportsService } from './imports.service.js';

/** Member and contribution imports (docs/decisions/0128-modules-compose-their-services.md). */
export function createImportsModule({
  database,
  audit,
  ppsKeyring,
  dataDir,
  uploads,
  now,
}: PlatformParts): ServerModule {
  const imports = createImportsService({ database, audit, ppsKeyring, dataDir, uploads, now });
  return {
    services: {},
    routes: async (app) => {
      await app.register(importsRoutes, { imports });
    },
  };
}
