import type { GovernanceDashboardView } from '../../../contracts/governance.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { DueStanding } from '../../../contracts/overview.js';
import { isChased, schemeChasedFrom } from '../../../contracts/remittance-rules.js';
import type { Database } from '../../platform/db/database.js';
import { withActor } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, boundsOf, isAllowed } from '../../platform/tenancy/authorize.js';
import type { ComplianceService } from '../governance/index.js';
import {
  lastContributionPeriods,
  liveMembersOf,
  openFundCounts,
  periodCoverage,
  recentImports,
  schemesInReach,
} from './overview.data.js';
import type { OverviewView } from './overview.schemas.js';

/** Enough for any one firm's home page; beyond it the schemes list is the place to look. */
const SCHEMES_SHOWN = 200;
const UPLOADS_SHOWN = 5;
const MEMBERS_SHOWN = 20;
const MEMBERS_EXAMINED = 2000;

/**
 * The pay period whose contributions are due now: last month, in Irish time (docs/decisions/0050-irish-dates.md),
 * since payroll for a month is run at its end and uploaded after it.
 */
export function duePeriodAt(now: Date): string {
  const [year, month] = todayInIreland(now).split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/**
 * Where a scheme's due pay period stands (contracts/overview.ts, DUE_STANDINGS), from its latest
 * month with contributions, its members who owed for the due one, and the first month chased
 * (remittance-rules.ts, schemeChasedFrom). A due month the remittance rules do not chase, and of
 * which nothing is in, is not asked for (docs/decisions/0045-home-pages-by-role.md), whatever
 * later months are in: the months a scheme sends once it is on the service do not make the month
 * before it owed. Once some of the due month is in, what is in is said as for any month.
 */
export function dueStandingOf(
  lastPeriod: string | null,
  members: { owing: number; unpaid: number },
  duePeriod: string,
  chasedFrom: string,
): DueStanding {
  const someOfItIn = members.owing > members.unpaid;
  if (!isChased(duePeriod, chasedFrom) && !someOfItIn) return 'before_service';
  if (lastPeriod !== null && lastPeriod >= duePeriod) {
    return members.unpaid === 0 ? 'in' : 'part_in';
  }
  return members.owing === 0 ? 'nothing_owed' : 'not_in';
}

export interface OverviewDeps {
  database: Database;
  now: () => Date;
  /** The schemes' governance standing, read as the governance dashboard reads it. */
  compliance: Pick<ComplianceService, 'dashboard'>;
}

/**
 * The home pages' work lists (docs/decisions/0045-home-pages-by-role.md): what broker staff should look at across the
 * firm, and what an employer's staff should do next for their own employer. Row-level security
 * keeps it to the tenant; the employer filter keeps an employer-scoped reader to their employer.
 */
export function createOverviewService({ database, now, compliance }: OverviewDeps) {
  return {
    /**
     * `governance` is the governance dashboard when the caller has read it already (the firm's
     * dashboard does), so that the standing is assessed once a request and the two agree.
     */
    async read(
      actor: ActorContext,
      known: { governance?: GovernanceDashboardView | null } = {},
    ): Promise<OverviewView> {
      const tenantActor = authorize(actor, 'overview.read');
      const { employerId } = boundsOf(tenantActor, 'overview.read');
      const at = now();
      const duePeriod = duePeriodAt(at);
      // A scheme is up to date only when its governance is too: the standing the governance
      // dashboard counts it under (docs/decisions/0131-what-people-read.md).
      const governance =
        known.governance !== undefined
          ? known.governance
          : isAllowed(tenantActor, 'compliance.dashboard')
            ? await compliance.dashboard(tenantActor)
            : null;
      const standing = new Map(
        (governance?.schemes ?? []).map((scheme) => [scheme.schemeId, scheme.status]),
      );
      return withActor(database, tenantActor, async (tx) => {
        const schemeRows = await schemesInReach(tx, employerId, SCHEMES_SHOWN);
        const ids = schemeRows.map((row) => row.id);
        if (ids.length === 0) {
          return { duePeriod, schemes: [], recentUploads: [], membersNeedingAttention: [] };
        }
        // One statement after another: a transaction is one connection, which runs one at a time.
        const fundCounts = await openFundCounts(tx, ids);
        const lastPeriods = await lastContributionPeriods(tx, ids);
        const uploads = await recentImports(tx, ids, UPLOADS_SHOWN);
        // Members are the employer's to look after; the broker's list is of schemes.
        const memberRows =
          employerId === null ? [] : await liveMembersOf(tx, ids, duePeriod, at, MEMBERS_EXAMINED);
        const coverage = await periodCoverage(tx, ids, duePeriod);
        const byScheme = <T extends { schemeId: string }>(rows: T[]) =>
          new Map(rows.map((row) => [row.schemeId, row]));
        const fundCount = byScheme(fundCounts);
        const lastPeriod = byScheme(lastPeriods);
        const dueCoverage = byScheme(coverage);
        const schemeName = new Map(schemeRows.map((row) => [row.id, row.name]));

        const schemesView = schemeRows
          .map((row) => {
            const membersIn = dueCoverage.get(row.id)?.live ?? 0;
            const last = lastPeriod.get(row.id)?.last ?? null;
            const duePeriodMembers = {
              owing: dueCoverage.get(row.id)?.owing ?? 0,
              unpaid: dueCoverage.get(row.id)?.unpaid ?? 0,
            };
            const chasedFrom = schemeChasedFrom(row.addedOn);
            const dueStanding = dueStandingOf(last, duePeriodMembers, duePeriod, chasedFrom);
            const needs: OverviewView['schemes'][number]['needs'] = [];
            if (membersIn === 0) needs.push('no_members');
            // A DB scheme's members choose no funds; every other type needs one to invest in.
            if (row.type !== 'DB' && (fundCount.get(row.id)?.n ?? 0) === 0) needs.push('no_funds');
            if (dueStanding === 'not_in') needs.push('contributions_due');
            if (dueStanding === 'part_in') needs.push('contributions_missing');
            const governanceStanding = standing.get(row.id) ?? null;
            if (governanceStanding !== null && governanceStanding !== 'ok')
              needs.push('governance');
            const { addedOn: _addedOn, ...scheme } = row;
            return {
              ...scheme,
              chasedFrom,
              memberCount: membersIn,
              lastPeriod: last,
              duePeriodMembers,
              dueStanding,
              governance: governanceStanding,
              needs,
            };
          })
          // The ones with work first, each group by name.
          .sort((a, b) => Number(b.needs.length > 0) - Number(a.needs.length > 0));

        // A member missed the due period when their scheme's payroll for it is in but they are
        // not, and they owed contributions for it: never for a month before the scheme was on the
        // service, which nobody asks for.
        const schemeHasDue = new Set(
          schemesView
            .filter((row) => row.dueStanding === 'in' || row.dueStanding === 'part_in')
            .map((row) => row.id),
        );
        const membersNeedingAttention = memberRows
          .map((row) => {
            const needs: OverviewView['membersNeedingAttention'][number]['needs'] = [];
            // A member can be reached by e-mail through the address on their record or the one
            // their portal account signs in with (or was invited at, while the link is open).
            if (!row.email && !row.portalAddress) needs.push('no_email');
            if (schemeHasDue.has(row.schemeId) && row.unpaid) needs.push('missed_last_period');
            return {
              id: row.id,
              name: `${row.firstName} ${row.lastName}`,
              schemeId: row.schemeId,
              schemeName: schemeName.get(row.schemeId) ?? '',
              needs,
            };
          })
          .filter((row) => row.needs.length > 0)
          .slice(0, MEMBERS_SHOWN);

        return {
          duePeriod,
          schemes: schemesView,
          recentUploads: uploads.map((row) => ({
            id: row.id,
            schemeId: row.schemeId,
            schemeName: schemeName.get(row.schemeId) ?? '',
            kind: row.kind as 'members' | 'contributions',
            status: row.status,
            rowsWritten: row.rowsWritten,
            issueCount: row.issueCount,
            createdAt: row.createdAt.toISOString(),
          })),
          membersNeedingAttention,
        };
      });
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
