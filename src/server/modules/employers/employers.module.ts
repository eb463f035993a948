import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { employersRoutes } from './employers.routes.js';
import { createEmployersService, type EmployersService } from './employers.service.js';

/** A firm's employers (docs/decisions/0128-modules-compose-their-services.md). */
export function createEmployersModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ employers: EmployersService }> {
  const employers = createEmployersService({ database, audit, now });
  return {
    services: { employers },
    routes: async (app) => {
      await app.register(employersRoutes, { employers });
    },
  };
}
