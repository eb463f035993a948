import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { dataBreachesRoutes } from './data-breaches.routes.js';
import { createDataBreachesService, type DataBreachesService } from './data-breaches.service.js';

/** The firm's register of personal-data breaches (docs/decisions/0138-personal-data-breaches.md). */
export function createDataBreachesModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ dataBreaches: DataBreachesService }> {
  const dataBreaches = createDataBreachesService({ database, audit, now });
  return {
    services: { dataBreaches },
    routes: async (app) => {
      await app.register(dataBreachesRoutes, { dataBreaches });
    },
  };
}
