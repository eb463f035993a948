import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { lifecycleRoutes } from './lifecycle.routes.js';
import { createLifecycleService, type LifecycleService } from './lifecycle.service.js';

/** A member's lifecycle (docs/decisions/0135-members-lifecycle.md). */
export function createLifecycleModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ lifecycle: LifecycleService }> {
  const lifecycle = createLifecycleService({ database, audit, now });
  return {
    services: { lifecycle },
    routes: async (app) => {
      await app.register(lifecycleRoutes, { lifecycle });
    },
  };
}
