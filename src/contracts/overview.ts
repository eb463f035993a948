import { z } from 'zod';
import { auditRecordView } from './audit.js';
import { overviewView as autoEnrolmentOverviewView } from './auto-enrolment.js';
import { dataRequestView } from './data-requests.js';
import { governanceDashboardView, OBLIGATION_STATUSES } from './governance.js';
import { pageOf } from './pages.js';

/**
 * Why a scheme is on someone's list of work (docs/decisions/0045-home-pages-by-role.md):
 * `governance` when its governance standing is anything but OK, the standing the governance
 * dashboard counts it under, so that "every scheme is up to date" is never said beside a scheme
 * whose governance is not (docs/decisions/0131-what-people-read.md). `contributions_due` when
 * nothing is in for the due pay period; `contributions_missing` when some is, but not for every
 * member who owed contributions for it, so "contributions are in" is never said while one is not.
 */
export const SCHEME_NEEDS = [
  'no_members',
  'no_funds',
  'contributions_due',
  'contributions_missing',
  'governance',
] as const;
/** Why a member is on an employer's list of work. */
export const MEMBER_NEEDS = ['no_email', 'missed_last_period'] as const;

/**
 * Where a scheme's due pay period stands: `in` for every member who owed contributions for it,
 * `part_in` where its payroll is in but some member who owed has nothing paid, `not_in` where
 * members owed and the scheme's latest contributions are of an earlier month (or there are none),
 * and `nothing_owed` where no member owed anything for it (no members yet, or all joined since).
 */
export const DUE_STANDINGS = ['in', 'part_in', 'not_in', 'nothing_owed', 'before_service'] as const;
export type DueStanding = (typeof DUE_STANDINGS)[number];

const schemeAttention = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  employerId: z.string(),
  employerName: z.string(),
  memberCount: z.number().int(),
  /** The latest pay period with any contribution, `YYYY-MM`, or null. */
  lastPeriod: z.string().nullable(),
  /**
   * The due pay period's members: how many owed contributions for it (a member at some time in
   * it and still one at its end), and how many of those have none recorded.
   */
  duePeriodMembers: z.object({ owing: z.number().int(), unpaid: z.number().int() }),
  /**
   * The first month whose contributions are asked for, `YYYY-MM`: the month the scheme was added
   * to the service (remittance-rules.ts, schemeChasedFrom).
   */
  chasedFrom: z.string(),
  /**
   * Where the due pay period stands (DUE_STANDINGS), as the server reads the three above:
   * `before_service` when the due month is before `chasedFrom` and nothing of it is in, so it is
   * not asked for, as the remittance calendar does not chase it.
   */
  dueStanding: z.enum(DUE_STANDINGS),
  /**
   * Its governance standing, as the governance dashboard gives it; null where no governance
   * registers apply (a PRSA, an RAC that is a contract).
   */
  governance: z.enum(OBLIGATION_STATUSES).nullable(),
  needs: z.array(z.enum(SCHEME_NEEDS)),
});

const recentUpload = z.object({
  id: z.string(),
  schemeId: z.string(),
  schemeName: z.string(),
  kind: z.enum(['members', 'contributions']),
  status: z.string(),
  rowsWritten: z.number().int(),
  issueCount: z.number().int(),
  createdAt: z.string(),
});

const memberAttention = z.object({
  id: z.string(),
  name: z.string(),
  schemeId: z.string(),
  schemeName: z.string(),
  needs: z.array(z.enum(MEMBER_NEEDS)),
});

export const overviewView = z.object({
  /** The pay period now due, `YYYY-MM`: last month in Irish time. */
  duePeriod: z.string(),
  schemes: z.array(schemeAttention),
  recentUploads: z.array(recentUpload),
  membersNeedingAttention: z.array(memberAttention),
});
export type OverviewView = z.infer<typeof overviewView>;

/** The dashboard counts a list up to this many; beyond it says "more than". */
export const DASHBOARD_COUNT_LIMIT = 1_000;
/** The audit records the dashboard shows as recent activity. */
export const DASHBOARD_RECENT_ACTIVITY = 8;
/** The data-subject requests still to be answered the dashboard shows, the earliest due first. */
export const DASHBOARD_DATA_REQUESTS = 5;

/** How many of a list the person reaches, counted up to `DASHBOARD_COUNT_LIMIT`. */
const listCount = z.object({ count: z.number().int(), complete: z.boolean() });

/**
 * The firm's dashboard in one request (docs/decisions/0118-pages-composed-on-the-server.md): each
 * part is what its own route answers the same person; a part they may not read is null.
 */
export const dashboardView = z.object({
  overview: overviewView,
  counts: z.object({
    employers: listCount,
    schemes: listCount,
    accounts: listCount.nullable(),
  }),
  governance: governanceDashboardView.nullable(),
  autoEnrolment: autoEnrolmentOverviewView.nullable(),
  recentActivity: pageOf(auditRecordView).nullable(),
  /**
   * The firm's data-subject requests still to be answered (open or extended), the earliest due
   * first, up to DASHBOARD_DATA_REQUESTS, as `GET /api/data-requests?status=open` and
   * `?status=extended` answer them; `more` when there are others
   * (docs/decisions/0137-data-subject-requests.md).
   */
  dataRequests: z.object({ items: z.array(dataRequestView), more: z.boolean() }).nullable(),
});
export type DashboardView = z.infer<typeof dashboardView>;
