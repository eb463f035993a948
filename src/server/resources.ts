import type { FastifyPluginAsync } from 'fastify';
import { auditRoutes, createAuditReadService } from './modules/audit/index.js';
import {
  autoEnrolmentRoutes,
  createAutoEnrolmentService,
  createEmployerPayrollService,
} from './modules/auto-enrolment/index.js';
import { brokersRoutes, createBrokersService } from './modules/brokers/index.js';
import {
  contributionsRoutes,
  createContributionsService,
  createPayrollService,
  payrollRoutes,
} from './modules/contributions/index.js';
import { createEmployersService, employersRoutes } from './modules/employers/index.js';
import { createFundsService, fundsRoutes } from './modules/funds/index.js';
import { createMemberExportService, gdprRoutes } from './modules/gdpr/index.js';
import {
  createAppointmentsService,
  createComplianceService,
  createPoliciesService,
  createSchemeYearService,
  governanceRoutes,
  schemeYearRoutes,
} from './modules/governance/index.js';
import { createImportsService, importsRoutes } from './modules/imports/index.js';
import { createMembersService, membersRoutes } from './modules/members/index.js';
import {
  createDashboardService,
  createOverviewService,
  overviewRoutes,
} from './modules/overview/index.js';
import {
  createMemberPageService,
  createPortalService,
  portalRoutes,
} from './modules/portal/index.js';
import { createSchemesService, schemesRoutes } from './modules/schemes/index.js';
import { createUsersService, usersRoutes } from './modules/users/index.js';
import type { AuditService } from './platform/audit/audit-log.js';
import type { PpsKeyring } from './platform/crypto/pps-keyring.js';
import type { Database } from './platform/db/database.js';
import type { Outbox } from './platform/email/outbox.js';
import { createUploadSlots } from './platform/uploads/upload-slots.js';

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
  const { database, audit, now, ppsKeyring } = deps;
  // One allowance for both kinds of upload: they hold the same connections.
  const uploads = createUploadSlots({ perTenant: deps.uploadsPerTenant });
  const employers = createEmployersService({ database, audit, now });
  const schemes = createSchemesService({ database, audit, now });
  const users = createUsersService(deps);
  const members = createMembersService({ database, audit, ppsKeyring, now });
  const contributions = createContributionsService({ database, audit, now });
  const funds = createFundsService({
    database,
    audit,
    now,
    outbox: deps.outbox,
    publicBaseUrl: deps.publicBaseUrl,
    onEmailQueued: deps.onEmailQueued,
  });
  const portal = createPortalService({ database, audit, now });
  const overview = createOverviewService({ database, now });
  const compliance = createComplianceService({ database, audit, now });
  const autoEnrolment = createAutoEnrolmentService({ database, audit, now });
  const auditRead = createAuditReadService({ database, audit });

  await app.register(brokersRoutes, { brokers: createBrokersService({ database, audit, now }) });
  await app.register(usersRoutes, { users });
  await app.register(employersRoutes, { employers });
  await app.register(schemesRoutes, { schemes });
  await app.register(membersRoutes, { members });
  await app.register(gdprRoutes, {
    gdprExport: createMemberExportService({ database, audit, now }),
  });
  await app.register(contributionsRoutes, { contributions });
  await app.register(payrollRoutes, { payroll: createPayrollService({ database, audit, now }) });
  await app.register(fundsRoutes, { funds });
  // The pages composed from the services that own their parts (docs/decisions/0118).
  await app.register(overviewRoutes, {
    overview,
    dashboard: createDashboardService({
      overview,
      employers,
      schemes,
      users,
      compliance,
      autoEnrolment,
      auditRead,
    }),
  });
  await app.register(portalRoutes, {
    portal,
    memberPage: createMemberPageService({ members, portal, funds, contributions }),
  });
  await app.register(importsRoutes, {
    imports: createImportsService({
      database,
      audit,
      ppsKeyring,
      dataDir: deps.dataDir,
      uploads,
      now,
    }),
  });
  await app.register(governanceRoutes, {
    appointments: createAppointmentsService({ database, audit, now }),
    policies: createPoliciesService({ database, audit, now }),
    compliance,
  });
  await app.register(schemeYearRoutes, {
    schemeYear: createSchemeYearService({ database, audit, now }),
  });
  // Auto-enrolment readiness (docs/decisions/0068-auto-enrolment-readiness.md): an employer's payroll and its assessment.
  await app.register(autoEnrolmentRoutes, {
    payroll: createEmployerPayrollService({ database, audit, ppsKeyring, uploads, now }),
    autoEnrolment,
  });
  await app.register(auditRoutes, { auditRead });
};
