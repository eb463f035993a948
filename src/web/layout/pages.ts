import type { Scope } from '../../contracts/policy';
import type { Access } from '../auth/can';

/**
 * The reaches whose work a firm's records are: the firm's staff, an employer's staff and a member
 * (their own record). The platform is not among them: the web UI's pages about a
 * firm's employers, schemes, members, runs, imports, payroll and drafts answer "Not available" to
 * it by address, as its menu leads to none of them; platform support reads a firm's records
 * through the audited API (docs/decisions/0153-firm-records-not-the-platforms-pages.md).
 */
const WITHIN_A_FIRM = ['tenant', 'employer', 'member'] as const satisfies readonly Scope[];

/**
 * What opening each signed-in page needs, in terms of the policy table, and the reaches it is
 * for. A page about a firm's records is for those within a firm (WITHIN_A_FIRM); a page that is
 * one side's view names that side: the dashboard is the firm's (tenant-wide) overview, the home
 * page an employer's, the employers and users pages a firm's own lists. The navigation reads the
 * same entries (navigation.ts), so a page and its menu item never disagree.
 */
export const PAGES = {
  dashboard: { action: 'overview.read', scopes: ['tenant'] },
  home: { action: 'overview.read', scopes: ['employer'] },
  brokers: { action: 'broker.list' },
  broker: { action: 'broker.users.list' },
  employers: { action: 'employer.list', scopes: ['tenant'] },
  employer: { action: 'employer.read', scopes: WITHIN_A_FIRM },
  schemes: { action: 'scheme.list', scopes: WITHIN_A_FIRM },
  scheme: { action: 'scheme.read', scopes: WITHIN_A_FIRM },
  /** A scheme's CSV import of members or contributions. */
  schemeImport: { action: ['member.import', 'contribution.import'], scopes: WITHIN_A_FIRM },
  /** One pay period of a scheme's payroll (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
  payrollGrid: { action: 'payroll.read', scopes: WITHIN_A_FIRM },
  /** One run of a scheme's Pension Benefit Statements (docs/decisions/0141-pension-benefit-statements.md). */
  statementRun: { action: 'statement_run.read', scopes: WITHIN_A_FIRM },
  /** One draft of a scheme's governance writing (docs/decisions/0067-ai-drafts.md). */
  draft: { action: 'ai.draft.read', scopes: WITHIN_A_FIRM },
  member: { action: 'member.read', scopes: WITHIN_A_FIRM },
  users: { action: 'user.list', scopes: ['tenant'] },
  audit: { action: 'audit.read' },
  /** Every scheme's governance standing within reach: a firm's, or an employer's own schemes. */
  governance: { action: 'compliance.dashboard', scopes: WITHIN_A_FIRM },
  complianceCalendar: { action: 'compliance.calendar', scopes: WITHIN_A_FIRM },
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
  autoEnrolment: { action: 'auto_enrolment.read', scopes: WITHIN_A_FIRM },
  autoEnrolmentUpload: { action: 'ae_payroll.import', scopes: WITHIN_A_FIRM },
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
