import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { brokersRoutes } from './brokers.routes.js';
import { createBrokersService } from './brokers.service.js';

/** The broker firms (docs/decisions/0128-modules-compose-their-services.md). */
export function createBrokersModule({ database, audit, now }: PlatformParts): ServerModule {
  const brokers = createBrokersService({ database, audit, now });
  return {
    services: {},
    routes: async (app) => {
      await app.register(brokersRoutes, { brokers });
    },
  };
}
