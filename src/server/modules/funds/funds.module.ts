import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { fundsRoutes } from './funds.routes.js';
import { createFundsService, type FundsService } from './funds.service.js';

/** A scheme's funds and its members' fund choices (docs/decisions/0128-modules-compose-their-services.md). */
export function createFundsModule({
  database,
  audit,
  now,
  outbox,
  publicBaseUrl,
  onEmailQueued,
}: PlatformParts): ServerModule<{ funds: FundsService }> {
  const funds = createFundsService({ database, audit, now, outbox, publicBaseUrl, onEmailQueued });
  return {
    services: { funds },
    routes: async (app) => {
      await app.register(fundsRoutes, { funds });
    },
  };
}
