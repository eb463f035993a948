import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { schemesRoutes } from './schemes.routes.js';
import { createSchemesService, type SchemesService } from './schemes.service.js';

/** An employer's schemes (docs/decisions/0128-modules-compose-their-services.md). */
export function createSchemesModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ schemes: SchemesService }> {
  const schemes = createSchemesService({ database, audit, now });
  return {
    services: { schemes },
    routes: async (app) => {
      await app.register(schemesRoutes, { schemes });
    },
  };
}
