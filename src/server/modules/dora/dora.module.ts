import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { ictIncidentsRoutes } from './ict-incidents.routes.js';
import { createIctIncidentsService, type IctIncidentsService } from './ict-incidents.service.js';

/** DORA: the firm's register of ICT incidents (docs/decisions/0139-dora-ict-incidents.md). */
export function createDoraModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ ictIncidents: IctIncidentsService }> {
  const ictIncidents = createIctIncidentsService({ database, audit, now });
  return {
    services: { ictIncidents },
    routes: async (app) => {
      await app.register(ictIncidentsRoutes, { ictIncidents });
    },
  };
}
