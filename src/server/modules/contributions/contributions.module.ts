import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { contributionsRoutes } from './contributions.routes.js';
import { type ContributionsService, createContributionsService } from './contributions.service.js';
import { payrollRoutes } from './payroll-grid.routes.js';
import { createPayrollService } from './payroll-grid.service.js';
import { remittancesRoutes } from './remittances.routes.js';
import { createRemittancesService } from './remittances.service.js';

/**
 * Contributions, the payroll grid and contribution remittance
 * (docs/decisions/0128-modules-compose-their-services.md).
 */
export function createContributionsModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ contributions: ContributionsService }> {
  const contributions = createContributionsService({ database, audit, now });
  const payroll = createPayrollService({ database, audit, now });
  const remittances = createRemittancesService({ database, audit, now });
  return {
    services: { contributions },
    routes: async (app) => {
      await app.register(contributionsRoutes, { contributions });
      await app.register(payrollRoutes, { payroll });
      await app.register(remittancesRoutes, { remittances });
    },
  };
}
