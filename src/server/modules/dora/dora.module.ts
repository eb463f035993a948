import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { ictIncidentsRoutes } from './ict-incidents.routes.js';
import { createIctIncidentsService, type IctIncidentsService } from './ict-incidents.service.js';
import { ictProvidersRoutes } from './ict-providers.routes.js';
import { createIctProvidersService, type IctProvidersService } from './ict-providers.service.js';

/**
 * DORA: the firm's register of ICT incidents and its register of other ICT providers
 * (docs/decisions/0139-dora-ict-incidents.md).
 */
export function createDoraModule({ database, audit, now }: PlatformParts): ServerModule<{
  ictIncidents: IctIncidentsService;
  ictProviders: IctProvidersService;
}> {
  const ictIncidents = createIctIncidentsService({ database, audit, now });
  const ictProviders = createIctProvidersService({ database, audit, now });
  return {
    services: { ictIncidents, ictProviders },
    routes: async (app) => {
      await app.register(ictIncidentsRoutes, { ictIncidents });
      await app.register(ictProvidersRoutes, { ictProviders });
    },
  };
}
