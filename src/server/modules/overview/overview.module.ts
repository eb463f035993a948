import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { createDashboardService, type DashboardDeps } from './dashboard.service.js';
import { overviewRoutes } from './overview.routes.js';
import { createOverviewService } from './overview.service.js';
import { createPortfolioService } from './portfolio.service.js';

/**
 * The firm's overview and its dashboard, composed from the services that own their parts
 * (docs/decisions/0118-pages-composed-on-the-server.md, 0128-modules-compose-their-services.md).
 */
export function createOverviewModule(
  { database, now }: PlatformParts,
  owners: Omit<DashboardDeps, 'overview'>,
): ServerModule {
  const overview = createOverviewService({ database, now, compliance: owners.compliance });
  const dashboard = createDashboardService({ ...owners, overview });
  const portfolio = createPortfolioService({ database, compliance: owners.compliance });
  return {
    services: {},
    routes: async (app) => {
      await app.register(overviewRoutes, { overview, dashboard, portfolio });
    },
  };
}
