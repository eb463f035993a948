import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { contributionsRoutes } from './contributions.routes.js';
import { type ContributionsService, createContributionsService } from './contributions.service.js';
import { payrollRoutes } from './payroll-grid.routes.js';
import { createPayrollService } from './payroll-grid.service.js';

/** Contributions and the payroll grid (docs/decisions/0128-modules-compose-their-services.md). */
export function createContributionsModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ contributions: ContributionsService }> {
  const contributions = createContributionsService({ database, audit, now });
  const payroll = createPayrollService({ database, audit, now });
  return {
    services: { contributions },
    routes: async (app) => {
      await app.register(contributionsRoutes, { contributions });
      await app.register(payrollRoutes, { payroll });
    },
  };
}
