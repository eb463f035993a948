import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { ictIncidentsRoutes } from './ict-incidents.routes.js';
import { createIctIncidentsService, type IctIncidentsService } from './ict-incidents.service.js';
import { ictProvidersRoutes } from './ict-providers.routes.js';
import { createIctProvidersService, type IctProvidersService } from './ict-providers.service.js';
import { registerRoutes } from './register.routes.js';
import { createRegisterService, type RegisterService } from './register.service.js';

/**
 * DORA: the firm's register of ICT incidents, its register of other ICT providers and the
 * register of information made from them and the platform's own supply chain
 * (docs/decisions/0139-dora-ict-incidents.md).
 */
export function createDoraModule({
  database,
  audit,
  now,
  ictSupplyChain,
}: PlatformParts): ServerModule<{
  ictIncidents: IctIncidentsService;
  ictProviders: IctProvidersService;
  register: RegisterService;
}> {
  const ictIncidents = createIctIncidentsService({ database, audit, now });
  const ictProviders = createIctProvidersService({ database, audit, now });
  const register = createRegisterService({ database, now, ictSupplyChain });
  return {
    services: { ictIncidents, ictProviders, register },
    routes: async (app) => {
      await app.register(ictIncidentsRoutes, { ictIncidents });
      await app.register(ictProvidersRoutes, { ictProviders });
      await app.register(registerRoutes, { register });
    },
  };
}
