import type { FastifyPluginAsync } from 'fastify';
import type { AuditService } from '../audit/audit.service.js';
import type { PpsKeyring } from '../crypto/pps-keyring.js';
import type { Database } from '../db/database.js';
import type { Outbox } from '../email/outbox.js';
import { auditRoutes } from './audit/audit.routes.js';
import { createAuditReadService } from './audit/audit.service.js';
import { autoEnrolmentRoutes } from './auto-enrolment/auto-enrolment.routes.js';
import { createAutoEnrolmentService } from './auto-enrolment/auto-enrolment.service.js';
import { createEmployerPayrollService } from './auto-enrolment/payroll.service.js';
import { brokersRoutes } from './brokers/brokers.routes.js';
import { createBrokersService } from './brokers/brokers.service.js';
import { contributionsRoutes } from './contributions/contributions.routes.js';
import { createContributionsService } from './contributions/contributions.service.js';
import { payrollRoutes } from './contributions/payroll.routes.js';
import { createPayrollService } from './contributions/payroll.service.js';
import { employersRoutes } from './employers/employers.routes.js';
import { createEmployersService } from './employers/employers.service.js';
import { fundsRoutes } from './funds/funds.routes.js';
import { createFundsService } from './funds/funds.service.js';
import { createComplianceService } from './governance/compliance.service.js';
import { governanceRoutes } from './governance/governance.routes.js';
import { createPoliciesService } from './governance/policies.service.js';
import { createAppointmentsService } from './governance/registers.service.js';
import { importsRoutes } from './imports/imports.routes.js';
import { createImportsService } from './imports/imports.service.js';
import { createUploadSlots } from './imports/upload-slots.js';
import { createMemberExportService } from './members/member-export.service.js';
import { membersRoutes } from './members/members.routes.js';
import { createMembersService } from './members/members.service.js';
import { overviewRoutes } from './overview/overview.routes.js';
import { createOverviewService } from './overview/overview.service.js';
import { portalRoutes } from './portal/portal.routes.js';
import { createPortalService } from './portal/portal.service.js';
import { schemesRoutes } from './schemes/schemes.routes.js';
import { createSchemesService } from './schemes/schemes.service.js';
import { usersRoutes } from './users/users.routes.js';
import { createUsersService } from './users/users.service.js';

export interface ResourceDeps {
  database: Database;
  audit: AuditService;
  ppsKeyring: PpsKeyring;
  /** Uploads are spooled to files under here while they are checked. */
  dataDir: string;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  onEmailQueued: () => void;
  /** Imports and payroll uploads one tenant may run at once on this instance. */
  uploadsPerTenant: number;
}

/** The organisation API of decisions.md §4: one module per resource, each given only what it uses. */
export const resources: FastifyPluginAsync<ResourceDeps> = async (app, deps) => {
  const { database, audit, now } = deps;
  // One allowance for both kinds of upload: they hold the same connections.
  const uploads = createUploadSlots({ perTenant: deps.uploadsPerTenant });
  await app.register(brokersRoutes, { brokers: createBrokersService({ database, audit, now }) });
  await app.register(usersRoutes, { users: createUsersService(deps) });
  await app.register(employersRoutes, {
    employers: createEmployersService({ database, audit, now }),
  });
  await app.register(schemesRoutes, { schemes: createSchemesService({ database, audit, now }) });
  await app.register(membersRoutes, {
    members: createMembersService({ database, audit, ppsKeyring: deps.ppsKeyring, now }),
    gdprExport: createMemberExportService({ database, audit, now }),
  });
  await app.register(contributionsRoutes, {
    contributions: createContributionsService({ database, audit, now }),
  });
  await app.register(payrollRoutes, { payroll: createPayrollService({ database, audit, now }) });
  await app.register(fundsRoutes, {
    funds: createFundsService({
      database,
      audit,
      now,
      outbox: deps.outbox,
      publicBaseUrl: deps.publicBaseUrl,
      onEmailQueued: deps.onEmailQueued,
    }),
  });
  await app.register(overviewRoutes, { overview: createOverviewService({ database, now }) });
  await app.register(portalRoutes, { portal: createPortalService({ database, audit, now }) });
  await app.register(importsRoutes, {
    imports: createImportsService({
      database,
      audit,
      ppsKeyring: deps.ppsKeyring,
      dataDir: deps.dataDir,
      uploads,
      now,
    }),
  });
  await app.register(governanceRoutes, {
    appointments: createAppointmentsService({ database, audit, now }),
    policies: createPoliciesService({ database, audit, now }),
    compliance: createComplianceService({ database, audit, now }),
  });
  // Auto-enrolment readiness (docs/decisions/0068-auto-enrolment-readiness.md): an employer's payroll and its assessment.
  await app.register(autoEnrolmentRoutes, {
    payroll: createEmployerPayrollService({
      database,
      audit,
      ppsKeyring: deps.ppsKeyring,
      uploads,
      now,
    }),
    autoEnrolment: createAutoEnrolmentService({ database, audit, now }),
  });
  await app.register(auditRoutes, { auditRead: createAuditReadService({ database, audit }) });
};
