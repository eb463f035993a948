import type { FastifyPluginAsync } from 'fastify';
import { createAuditModule } from './modules/audit/index.js';
import { createAutoEnrolmentModule } from './modules/auto-enrolment/index.js';
import { createBrokersModule } from './modules/brokers/index.js';
import { createContributionsModule } from './modules/contributions/index.js';
import { createDataBreachesModule } from './modules/data-breaches/index.js';
import { createDoraModule } from './modules/dora/index.js';
import { createEmployersModule } from './modules/employers/index.js';
import { createFundsModule } from './modules/funds/index.js';
import { createGdprModule } from './modules/gdpr/index.js';
import { createGovernanceModule } from './modules/governance/index.js';
import { createImportsModule } from './modules/imports/index.js';
import { createInvestmentsModule } from './modules/investments/index.js';
import { createLifecycleModule } from './modules/lifecycle/index.js';
import { createMembersModule } from './modules/members/index.js';
import { createOverviewModule } from './modules/overview/index.js';
import { createPortalModule } from './modules/portal/index.js';
import { createSchemesModule } from './modules/schemes/index.js';
import type { RunsService } from './modules/statements/index.js';
import { createUsersModule } from './modules/users/index.js';
import type { PlatformParts } from './platform/composition/server-module.js';
import { createUploadSlots } from './platform/uploads/upload-slots.js';

export interface ResourceDeps extends Omit<PlatformParts, 'uploads'> {
  /** Imports and payroll uploads one tenant may run at once on this instance. */
  uploadsPerTenant: number;
  /** The statements module's runs, made beside the documents' store (app.ts), for the member page. */
  statementRuns: Pick<RunsService, 'ofMember'>;
}

/**
 * The API (docs/api.md): one module per resource. Each module composes its own
 * services from the platform's parts (docs/decisions/0128-modules-compose-their-services.md); what
 * is wired here is only which module is given which other module's service, and the order of the
 * route table.
 */
export const resources: FastifyPluginAsync<ResourceDeps> = async (app, deps) => {
  // One allowance for both kinds of upload: they hold the same connections.
  const parts: PlatformParts = {
    ...deps,
    uploads: createUploadSlots({ perTenant: deps.uploadsPerTenant }),
  };
  const users = createUsersModule(parts);
  const employers = createEmployersModule(parts);
  const schemes = createSchemesModule(parts);
  const members = createMembersModule(parts);
  const contributions = createContributionsModule(parts);
  const funds = createFundsModule(parts);
  const governance = createGovernanceModule(parts);
  const autoEnrolment = createAutoEnrolmentModule(parts);
  const audit = createAuditModule(parts);
  const investments = createInvestmentsModule(parts);
  const lifecycle = createLifecycleModule(parts);
  const gdpr = createGdprModule(parts);

  const modules = [
    createBrokersModule(parts),
    users,
    employers,
    schemes,
    members,
    gdpr,
    contributions,
    funds,
    investments,
    lifecycle,
    // The pages composed from the services that own their parts (docs/decisions/0118).
    createOverviewModule(parts, {
      ...employers.services,
      ...schemes.services,
      ...users.services,
      ...governance.services,
      ...autoEnrolment.services,
      ...audit.services,
      ...gdpr.services,
    }),
    createPortalModule(parts, {
      ...members.services,
      ...funds.services,
      ...contributions.services,
      ...investments.services,
      ...lifecycle.services,
      statementRuns: deps.statementRuns,
      ...users.services,
    }),
    createImportsModule(parts),
    governance,
    createDataBreachesModule(parts),
    createDoraModule(parts),
    autoEnrolment,
    audit,
  ];
  for (const module of modules) await app.register(module.routes);
};
