import { type ObligationStatus, worstFirst } from '../../../contracts/governance-rules.js';
import type { SchemeType } from '../../../contracts/organisation.js';
import {
  PORTFOLIO_MAX_ROWS,
  type PortfolioEmployers,
  type PortfolioSchemes,
  type PortfolioSchemesQuery,
} from '../../../contracts/portfolio.js';
import type { SchemeStatus } from '../../../contracts/scheme-wind-up.js';
import type { Database } from '../../platform/db/database.js';
import { withActor } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, boundsOf, isAllowed } from '../../platform/tenancy/authorize.js';
import type { ComplianceService } from '../governance/index.js';
import {
  employersInReach,
  lastContributionPeriods,
  liveMemberCounts,
  liveSchemesOf,
  schemeRowsInReach,
} from './overview.data.js';

export interface PortfolioDeps {
  database: Database;
  /** The schemes' governance standing, as the governance dashboard assesses it. */
  compliance: Pick<ComplianceService, 'dashboard'>;
}

const bySchemeId = <T extends { schemeId: string }>(rows: T[]) =>
  new Map(rows.map((row) => [row.schemeId, row]));

/** The later of two pay periods (`YYYY-MM` compares as text), either absent. */
const later = (a: string | null, b: string | null) =>
  a === null ? b : b === null || a > b ? a : b;

/** The worse of two standings, either absent. */
const worse = (a: ObligationStatus | null, b: ObligationStatus | null) =>
  a === null ? b : b === null || worstFirst(a, b) <= 0 ? a : b;

/**
 * The firm's employers and schemes lists, each row with its members, its governance standing and
 * the latest pay period received, in one request a page
 * (docs/decisions/0144-portfolio-lists.md). The list's own action gates it; the standing is shown
 * to whoever may read the governance dashboard (`compliance.dashboard`), and read from it, so the
 * lists, the dashboard and the governance page assess a scheme once and the same way.
 */
export function createPortfolioService({ database, compliance }: PortfolioDeps) {
  /** Each scheme's standing within the actor's reach, or null for a reader who may not see it. */
  /** The governance standing of each scheme, for a reader who may see the compliance dashboard. */
  const standings = async (reader: ActorContext): Promise<Map<string, ObligationStatus> | null> => {
    if (!isAllowed(reader, 'compliance.dashboard')) return null;
    const governance = await compliance.dashboard(reader);
    return new Map(governance.schemes.map((scheme) => [scheme.schemeId, scheme.status]));
  };

  return {
    async schemes(actor: ActorContext, query: PortfolioSchemesQuery): Promise<PortfolioSchemes> {
      const reader = authorize(actor, 'scheme.list');
      const bounds = boundsOf(reader, 'scheme.list');
      // An employer's staff reach their own employer's schemes whatever the filter names.
      if (bounds.employerId && query.employerId && query.employerId !== bounds.employerId) {
        return { items: [], nextCursor: null, truncated: false };
      }
      const employerId = bounds.employerId ?? query.employerId ?? null;
      const standing = await standings(reader);
      return withActor(database, reader, async (tx) => {
        const rows = await schemeRowsInReach(tx, employerId, PORTFOLIO_MAX_ROWS + 1);
        const shown = rows.slice(0, PORTFOLIO_MAX_ROWS);
        const ids = shown.map((row) => row.id);
        if (ids.length === 0) return { items: [], nextCursor: null, truncated: false };
        // One statement after another: a transaction is one connection.
        const counts = bySchemeId(await liveMemberCounts(tx, ids));
        const periods = bySchemeId(await lastContributionPeriods(tx, ids));
        return {
          items: shown.map((row) => ({
            ...row,
            type: row.type as SchemeType,
            status: row.status as SchemeStatus,
            memberCount: counts.get(row.id)?.n ?? 0,
            governance: standing?.get(row.id) ?? null,
            lastPeriod: periods.get(row.id)?.last ?? null,
          })),
          nextCursor: null,
          truncated: rows.length > PORTFOLIO_MAX_ROWS,
        };
      });
    },

    async employers(actor: ActorContext): Promise<PortfolioEmployers> {
      const reader = authorize(actor, 'employer.list');
      const { employerId } = boundsOf(reader, 'employer.list');
      const standing = await standings(reader);
      return withActor(database, reader, async (tx) => {
        const rows = await employersInReach(tx, employerId, PORTFOLIO_MAX_ROWS + 1);
        const shown = rows.slice(0, PORTFOLIO_MAX_ROWS);
        if (shown.length === 0) return { items: [], nextCursor: null, truncated: false };
        const schemeRows = await liveSchemesOf(
          tx,
          shown.map((row) => row.id),
        );
        const ids = schemeRows.map((row) => row.id);
        const counts = bySchemeId(ids.length ? await liveMemberCounts(tx, ids) : []);
        const periods = bySchemeId(ids.length ? await lastContributionPeriods(tx, ids) : []);
        const totals = new Map(
          shown.map((row) => [
            row.id,
            {
              schemeCount: 0,
              memberCount: 0,
              governance: null as ObligationStatus | null,
              lastPeriod: null as string | null,
            },
          ]),
        );
        for (const scheme of schemeRows) {
          const total = totals.get(scheme.employerId);
          if (!total) continue;
          total.schemeCount += 1;
          total.memberCount += counts.get(scheme.id)?.n ?? 0;
          total.governance = worse(total.governance, standing?.get(scheme.id) ?? null);
          total.lastPeriod = later(total.lastPeriod, periods.get(scheme.id)?.last ?? null);
        }
        return {
          items: shown.map((row) => ({
            ...row,
            ...(totals.get(row.id) as NonNullable<ReturnType<typeof totals.get>>),
          })),
          nextCursor: null,
          truncated: rows.length > PORTFOLIO_MAX_ROWS,
        };
      });
    },
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
