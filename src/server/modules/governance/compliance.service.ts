import { doraScope } from '../../../contracts/dora-rules.js';
import {
  calendarPosition,
  governanceApplies,
  isReminder,
  type Obligation,
  type ObligationStatus,
  worstFirst,
} from '../../../contracts/governance-rules.js';
import { addDays, todayInIreland } from '../../../contracts/irish-dates.js';
import type { RacKind, SchemeType } from '../../../contracts/organisation.js';
import { assessCompliance, calendarObligations } from '../../../contracts/scheme-standing.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { findScheme } from '../schemes/index.js';
import { loadGovernance, type SchemeHead } from './governance.data.js';
import {
  CALENDAR_MAX_DAYS,
  type CalendarEntryView,
  type CalendarQuery,
  type ComplianceView,
  type GovernanceDashboardView,
  type ObligationView,
} from './governance.schemas.js';

const entryOf = (
  scheme: SchemeHead,
  obligation: Obligation & { dueOn: string },
): CalendarEntryView => ({
  ...obligation,
  schemeId: scheme.id,
  schemeName: scheme.name,
  employerId: scheme.employerId,
  employerName: scheme.employerName,
});

function encodeKey(key: string): string {
  return Buffer.from(key).toString('base64url');
}

function decodeKey(cursor: string): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{4}-\d{2}-\d{2}\|/.test(key)) {
    throw new ValidationError([
      { path: 'cursor', code: 'invalid_cursor', message: 'Invalid cursor' },
    ]);
  }
  return key;
}

/**
 * One scheme's standing on `today`, read in the caller's transaction (row-level security applies)
 * by the one rule module: the compliance view and the evidence pack's summary say the same thing.
 * The caller has authorised the read of the scheme.
 */
export async function assessOneScheme(
  tx: Transaction,
  scheme: { id: string; type: string; racKind: string | null; yearEnd: string; status: string },
  today: string,
): Promise<{ status: ObligationStatus; obligations: Obligation[]; members: number }> {
  // A wound-up scheme's duties ended with it (docs/decisions/0146-schemes-wound-up-not-deleted.md).
  if (scheme.status === 'wound_up') return { status: 'ok', obligations: [], members: 0 };
  const [loaded] = await loadGovernance(tx, { schemeIds: [scheme.id] });
  const assessed = assessCompliance(
    loaded?.facts ?? {
      type: scheme.type as SchemeHead['type'],
      racKind: scheme.racKind as SchemeHead['racKind'],
      yearEnd: scheme.yearEnd,
      members: 0,
      trustees: [],
      keyFunctionHolders: [],
      policies: [],
      oraReports: [],
      significantChanges: [],
      trainings: [],
      filings: [],
      newMembers: [],
      remittance: { deducted: [], receipts: [] },
    },
    today,
  );
  return { ...assessed, members: loaded?.facts.members ?? 0 };
}

export interface ComplianceServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * A scheme's standing under its governance obligations, the tenant's calendar of due dates and the
 * broker's dashboard, all assessed on the day by the one rule module (governance-rules.ts) from
 * the registers as they stand: nothing is precomputed that a date passing could leave stale.
 */
export function createComplianceService({ database, audit, now }: ComplianceServiceDeps) {
  const reads = createPlatformReadLog(audit);
  const today = () => todayInIreland(now());

  return {
    async ofScheme(actor: ActorContext, schemeId: string): Promise<ComplianceView> {
      authorize(actor, 'compliance.read');
      return withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'compliance.read', await findScheme(tx, schemeId));
        const { status, obligations, members } = await assessOneScheme(tx, scheme, today());
        await reads.viewed(tx, actor, {
          entityType: 'compliance',
          entityId: scheme.id,
          tenantId: scheme.brokerId,
        });
        const dora = doraScope(
          { type: scheme.type as SchemeType, racKind: scheme.racKind as RacKind | null },
          members,
        );
        return { schemeId: scheme.id, status, obligations, dora };
      });
    },

    /**
     * The calendar of every scheme within reach (`calendarObligations`): each duty still
     * outstanding from before the window, then every date a duty falls due in it.
     */
    async calendar(actor: ActorContext, query: CalendarQuery) {
      const reader = authorize(actor, 'compliance.calendar');
      if (addDays(query.from, CALENDAR_MAX_DAYS) < query.to) {
        throw new ValidationError([
          {
            path: 'to',
            code: 'window_too_long',
            message: `Choose a window of at most ${CALENDAR_MAX_DAYS} days`,
          },
        ]);
      }
      const after = query.cursor === undefined ? null : decodeKey(query.cursor);
      const bounds = boundsOf(reader, 'compliance.calendar');
      const assessed = await withActor(database, reader, (tx) =>
        loadGovernance(tx, { employerId: bounds.employerId ?? query.employerId ?? null }),
      );
      const day = today();
      const entries: CalendarEntryView[] = [];
      for (const { scheme, facts } of assessed) {
        if (query.employerId && scheme.employerId !== query.employerId) continue;
        for (const obligation of calendarObligations(facts, day, query)) {
          entries.push(entryOf(scheme, obligation));
        }
      }
      const ordered = entries
        .map((entry) => ({ entry, key: calendarPosition(entry) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .filter(({ key }) => after === null || key > after);
      const page = ordered.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(({ entry }) => entry),
        nextCursor: ordered.length > query.limit && last ? encodeKey(last.key) : null,
      };
    },

    /**
     * Every scheme within reach by standing, with counts, what needs attention in each, and the
     * due dates a person is reminded of: overdue, or due within DUE_SOON_DAYS (`isReminder`).
     */
    async dashboard(actor: ActorContext): Promise<GovernanceDashboardView> {
      const reader = authorize(actor, 'compliance.dashboard');
      const bounds = boundsOf(reader, 'compliance.dashboard');
      const assessed = await withActor(database, reader, (tx) =>
        loadGovernance(tx, { employerId: bounds.employerId }),
      );
      const day = today();
      const counts = { ok: 0, due_soon: 0, overdue: 0, incomplete: 0 };
      const schemes: GovernanceDashboardView['schemes'] = [];
      const upcoming: CalendarEntryView[] = [];
      for (const { scheme, facts } of assessed) {
        // A PRSA, or an RAC that is a contract, keeps no registers: it has no standing to count.
        if (!governanceApplies(facts)) continue;
        const { status, obligations } = assessCompliance(facts, day);
        counts[status] += 1;
        const attention: ObligationView[] = obligations
          .filter((obligation) => obligation.status !== 'ok')
          .sort((a, b) => worstFirst(a.status, b.status));
        schemes.push({
          schemeId: scheme.id,
          schemeName: scheme.name,
          employerId: scheme.employerId,
          employerName: scheme.employerName,
          status,
          attention,
        });
        // What the reminder e-mails remind of: a duty done is not listed until it falls due again.
        for (const obligation of obligations) {
          if (isReminder(obligation)) upcoming.push(entryOf(scheme, obligation));
        }
      }
      // One collator for the sort: `localeCompare` with a locale builds one for each comparison.
      const byName = new Intl.Collator('en-IE').compare;
      schemes.sort((a, b) => worstFirst(a.status, b.status) || byName(a.schemeName, b.schemeName));
      // Each entry's position made once, not twice for every comparison of the sort.
      const positioned = upcoming.map((entry) => ({ entry, key: calendarPosition(entry) }));
      positioned.sort((a, b) => (a.key < b.key ? -1 : 1));
      return { counts, schemes, upcoming: positioned.map(({ entry }) => entry) };
    },
  };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
