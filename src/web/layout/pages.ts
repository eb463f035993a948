import type { Access } from '../auth/can';

/**
 * What opening each signed-in page needs, in terms of the policy table. A page that is one side's
 * view names the reach it is for: the dashboard is the firm's (tenant-wide) overview, the home
 * page an employer's, the employers and users pages a firm's own lists; the platform reaches the
 * same records from its brokers' pages.
 */
export const PAGES = {
  dashboard: { action: 'overview.read', scopes: ['tenant'] },
  home: { action: 'overview.read', scopes: ['employer'] },
  brokers: { action: 'broker.list' },
  broker: { action: 'broker.users.list' },
  employers: { action: 'employer.list', scopes: ['tenant'] },
  employer: { action: 'employer.read' },
  schemes: { action: 'scheme.list' },
  scheme: { action: 'scheme.read' },
  member: { action: 'member.read' },
  users: { action: 'user.list', scopes: ['tenant'] },
  audit: { action: 'audit.read' },
  /** Every scheme's governance standing within reach: a firm's, or an employer's own schemes. */
  governance: { action: 'compliance.dashboard' },
  complianceCalendar: { action: 'compliance.calendar' },
  /** The firm's register of personal-data breaches (docs/decisions/0138-personal-data-breaches.md): its own staff's. */
  dataBreaches: { action: 'data_breach.list', scopes: ['tenant'] },
  /** The firm's register of ICT incidents under DORA (docs/decisions/0139-dora-ict-incidents.md): its own staff's. */
  ictIncidents: { action: 'ict_incident.list', scopes: ['tenant'] },
  /**
   * The firm's register of its other ICT providers, and its register of information
   * (docs/decisions/0139-dora-ict-incidents.md): its own staff's. The platform reads providers
   * through the API only, having no firm's register of information to keep.
   */
  ictProviders: { action: 'ict_provider.list', scopes: ['tenant'] },
  /** The firm's register of data-subject requests (docs/decisions/0137-data-subject-requests.md): its own staff's. */
  dataRequests: { action: 'data_request.list', scopes: ['tenant'] },
  /** An employer's readiness for automatic enrolment, and the upload of its payroll (docs/decisions/0068-auto-enrolment-readiness.md). */
  autoEnrolment: { action: 'auto_enrolment.read' },
  autoEnrolmentUpload: { action: 'ae_payroll.import' },
  /**
   * The API reference is for those whose work the API scripts (docs/decisions/0131-what-people-read.md):
   * sending a payroll's members and contributions in (a firm's staff, an employer's
   * administrator), and setting up broker firms (the platform). An employer's user, who only
   * reads, and a member are not offered it.
   */
  apiReference: { action: ['contribution.import', 'member.import', 'broker.create'] },
  /** Questions about the regulations, for those who run schemes. */
  ask: { action: 'ai.chat' },
  /** The firm's own AI provider key, its monthly limits and its usage: a BrokerAdmin's. */
  aiSettings: { action: 'ai.settings.read' },
  /** Everyone's own account: who they are, and their password. */
  account: { action: 'account.password.change' },
} as const satisfies Record<string, Access>;
