import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { holdingsRoutes } from './holdings.routes.js';
import { createHoldingsService, type HoldingsService } from './holdings.service.js';
import { pricesRoutes } from './prices.routes.js';
import { createPricesService } from './prices.service.js';
import { switchesRoutes } from './switches.routes.js';
import { createSwitchesService, type SwitchesService } from './switches.service.js';

/**
 * DC money (docs/decisions/0127-dc-money.md; docs/decisions/0128-modules-compose-their-services.md):
 * fund prices, members' holdings and unit ledger, switches and the trustees' view of a scheme's
 * funds. The scheduled settlement, which the job runner needs, is wired by the composition root.
 */
export function createInvestmentsModule({ database, audit, now }: PlatformParts): ServerModule<{
  holdings: HoldingsService;
  switches: SwitchesService;
}> {
  const prices = createPricesService({ database, audit, now });
  const holdings = createHoldingsService({ database, audit, now });
  const switches = createSwitchesService({ database, audit, now });
  return {
    services: { holdings, switches },
    routes: async (app) => {
      await app.register(pricesRoutes, { prices });
      await app.register(holdingsRoutes, { holdings });
      await app.register(switchesRoutes, { switches });
    },
  };
}
