import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { assumptionsRoutes } from './assumptions.routes.js';
import { type AssumptionsService, createAssumptionsService } from './assumptions.service.js';

/** Pension Benefit Statements (docs/decisions/0141-pension-benefit-statements.md). */
export function createStatementsModule({
  database,
  audit,
  now,
}: Pick<PlatformParts, 'database' | 'audit' | 'now'>): ServerModule<{
  assumptions: AssumptionsService;
}> {
  const assumptions = createAssumptionsService({ database, audit, now });
  return {
    services: { assumptions },
    routes: async (app) => {
      await app.register(assumptionsRoutes, { assumptions });
    },
  };
}
