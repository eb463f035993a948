import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { createAppointmentsService } from './appointments.service.js';
import { type ComplianceService, createComplianceService } from './compliance.service.js';
import { conflictsRoutes } from './conflicts.routes.js';
import { createConflictsService } from './conflicts.service.js';
import { governanceRoutes } from './governance.routes.js';
import { createPoliciesService } from './policies.service.js';
import { schemeYearRoutes } from './scheme-year.routes.js';
import { createSchemeYearService } from './scheme-year.service.js';

/**
 * The governance registers, the scheme year, conflicts of interest and the compliance view
 * (docs/decisions/0128-modules-compose-their-services.md). The evidence pack, which needs the
 * documents' storage, is wired by the composition root.
 */
export function createGovernanceModule({
  database,
  audit,
  now,
}: PlatformParts): ServerModule<{ compliance: ComplianceService }> {
  const compliance = createComplianceService({ database, audit, now });
  const appointments = createAppointmentsService({ database, audit, now });
  const policies = createPoliciesService({ database, audit, now });
  const schemeYear = createSchemeYearService({ database, audit, now });
  const conflicts = createConflictsService({ database, audit, now });
  return {
    services: { compliance },
    routes: async (app) => {
      await app.register(governanceRoutes, { appointments, policies, compliance });
      await app.register(schemeYearRoutes, { schemeYear });
      await app.register(conflictsRoutes, { conflicts });
    },
  };
}
