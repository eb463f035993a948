import { apiRoutes } from '../../../contracts/api-routes.js';
import {
  DASHBOARD_COUNT_LIMIT,
  DASHBOARD_DATA_REQUESTS,
  DASHBOARD_RECENT_ACTIVITY,
  type DashboardView,
} from '../../../contracts/overview.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, isAllowed } from '../../platform/tenancy/authorize.js';
import type { AuditReadService } from '../audit/index.js';
import type { AutoEnrolmentService } from '../auto-enrolment/index.js';
import type { EmployersService } from '../employers/index.js';
import type { DataRequestsService } from '../gdpr/index.js';
import type { ComplianceService } from '../governance/index.js';
import type { SchemesService } from '../schemes/index.js';
import type { UsersService } from '../users/index.js';
import type { OverviewService } from './overview.service.js';

export interface DashboardDeps {
  overview: OverviewService;
  employers: EmployersService;
  schemes: SchemesService;
  users: UsersService;
  compliance: ComplianceService;
  autoEnrolment: AutoEnrolmentService;
  auditRead: AuditReadService;
  dataRequests: DataRequestsService;
}

type Page = { items: unknown[]; nextCursor: string | null };

/**
 * How many of a list the person reaches: its pages read as its route serves them, a hundred at a
 * time, until the end or `DASHBOARD_COUNT_LIMIT`. The list's own rule decides what is in it.
 */
async function countOf(read: (cursor: string | undefined) => Promise<Page>) {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    count += page.items.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && count < DASHBOARD_COUNT_LIMIT);
  return { count: Math.min(count, DASHBOARD_COUNT_LIMIT), complete: cursor === undefined };
}

/**
 * The requests still to be answered, open or extended, the earliest due first: the first few of
 * each status's list, as its route reads it, taken together.
 */
async function stillToAnswer(dataRequests: DataRequestsService, actor: ActorContext) {
  const read = (status: 'open' | 'extended') =>
    dataRequests.list(
      actor,
      apiRoutes.dataRequests.list.query.parse({ status, limit: DASHBOARD_DATA_REQUESTS }),
    );
  const [open, extended] = [await read('open'), await read('extended')];
  const all = [...open.items, ...extended.items].sort(
    (a, b) => a.dueOn.localeCompare(b.dueOn) || a.id.localeCompare(b.id),
  );
  return {
    items: all.slice(0, DASHBOARD_DATA_REQUESTS),
    more:
      all.length > DASHBOARD_DATA_REQUESTS ||
      open.nextCursor !== null ||
      extended.nextCursor !== null,
  };
}

/**
 * The firm's dashboard in one request (docs/decisions/0118-pages-composed-on-the-server.md). Each
 * part is asked of the service that owns it, as its own route asks, so each is authorised by its
 * own action and read-audited as it would be; a part the person may not read is null, as the page
 * would not have asked for it.
 */
export function createDashboardService(deps: DashboardDeps) {
  return {
    async read(actor: ActorContext): Promise<DashboardView> {
      authorize(actor, 'overview.read');
      // Read first and handed to the work list, whose "up to date" follows the same standing.
      const governance = isAllowed(actor, 'compliance.dashboard')
        ? await deps.compliance.dashboard(actor)
        : null;
      const overview = await deps.overview.read(actor, { governance });
      // Each list read as its own route reads it, a hundred at a time from a cursor.
      const hundred = (cursor: string | undefined) => ({ limit: 100, cursor });
      const counts = {
        employers: await countOf((cursor) =>
          deps.employers.list(actor, apiRoutes.employers.list.query.parse(hundred(cursor))),
        ),
        schemes: await countOf((cursor) =>
          deps.schemes.list(actor, apiRoutes.schemes.list.query.parse(hundred(cursor))),
        ),
        accounts: isAllowed(actor, 'user.list')
          ? await countOf((cursor) =>
              deps.users.list(actor, apiRoutes.users.list.query.parse(hundred(cursor))),
            )
          : null,
      };
      const autoEnrolment = isAllowed(actor, 'auto_enrolment.overview')
        ? await deps.autoEnrolment.overview(actor, apiRoutes.autoEnrolment.overview.query.parse({}))
        : null;
      const recentActivity = isAllowed(actor, 'audit.read')
        ? await deps.auditRead.list(
            actor,
            apiRoutes.audit.list.query.parse({ limit: DASHBOARD_RECENT_ACTIVITY }),
          )
        : null;
      const dataRequests = isAllowed(actor, 'data_request.list')
        ? await stillToAnswer(deps.dataRequests, actor)
        : null;
      return { overview, counts, governance, autoEnrolment, recentActivity, dataRequests };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
