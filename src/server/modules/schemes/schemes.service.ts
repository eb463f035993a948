import { createId } from '@paralleldrive/cuid2';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import {
  acceptsChanges,
  type SchemeStatus,
  type SchemeWindUpInput,
  schemeDeleteRefusal,
  type WindUpReason,
  WOUND_UP_REFUSAL,
} from '../../../contracts/scheme-wind-up.js';
import { basisPointsOf, percentOf } from '../../../contracts/statements.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { type SCHEME_TYPES, schemes } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { findEmployer } from '../employers/index.js';
import {
  findScheme,
  findSchemeWithMembership,
  insertScheme,
  isOpenFundOf,
  listSchemes,
  lockSchemeStatus,
  type SchemeRow,
  schemeHasMembers,
  softDeleteScheme,
  updateScheme,
  windUpScheme,
} from './schemes.data.js';
import {
  DEFAULT_YEAR_END,
  dbTermsProblem,
  type RacKind,
  racKindProblem,
  type SchemeChange,
  type SchemeDetailView,
  type SchemeInput,
  type SchemeListQuery,
  type SchemeType,
  type SchemeView,
  schemeTypeFixedBecause,
} from './schemes.schemas.js';

const viewOf = (row: SchemeRow): SchemeView => ({
  id: row.id,
  brokerId: row.brokerId,
  employerId: row.employerId,
  name: row.name,
  type: row.type as (typeof SCHEME_TYPES)[number],
  yearEnd: row.yearEnd,
  racKind: row.racKind as RacKind | null,
  defaultFundId: row.defaultFundId,
  srNumber: row.srNumber,
  lei: row.lei,
  startDate: row.startDate,
  employeeContributionBasisPoints: row.employeeContributionBasisPoints,
  employerContributionBasisPoints: row.employerContributionBasisPoints,
  refundsAllowed: row.refundsAllowed,
  status: row.status as SchemeStatus,
  woundUpOn: row.woundUpOn,
  windUpReason: row.windUpReason as WindUpReason | null,
  normalRetirementAge: row.normalRetirementAge,
  accrualRate: row.accrualRate,
  fundingLevelPct:
    row.fundingLevelBasisPoints === null ? null : percentOf(row.fundingLevelBasisPoints),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** An accrual rate or a funding level given to a scheme that is not DB: a 400 on its field. */
function refuseDbTermsOutsideDb(
  type: SchemeType,
  terms: { accrualRate?: string | null; fundingLevelPct?: number | null },
) {
  const problem = dbTermsProblem(type, terms);
  if (problem) {
    throw new ValidationError([{ path: problem.path, code: 'custom', message: problem.message }]);
  }
}

export interface SchemesServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** A broker firm's schemes (docs/api.md, "The firm's structure"; who may do what: contracts/policy.ts). */
export function createSchemesService({ database, audit, now }: SchemesServiceDeps) {
  const reads = createPlatformReadLog(audit);

  return {
    /**
     * In this order (docs/api.md, "Who may do what"): load the employer, enforce tenant access on the
     * employer's brokerId, validate, insert the scheme, write the audit record.
     */
    async create(actor: ActorContext, input: SchemeInput): Promise<SchemeView> {
      const tenantActor = authorize(actor, 'scheme.create');
      return withActor(database, tenantActor, async (tx) => {
        const employer = authorizeRow(
          tenantActor,
          'scheme.create',
          await findEmployer(tx, input.employerId),
        );
        refuseDbTermsOutsideDb(input.type, input);
        const at = now();
        const scheme = await insertScheme(tx, {
          id: createId(),
          brokerId: employer.brokerId,
          employerId: employer.id,
          name: input.name,
          type: input.type,
          yearEnd: input.yearEnd ?? DEFAULT_YEAR_END,
          racKind: input.racKind ?? null,
          srNumber: input.srNumber ?? null,
          lei: input.lei ?? null,
          startDate: input.startDate ?? null,
          employeeContributionBasisPoints: input.employeeContributionBasisPoints ?? null,
          employerContributionBasisPoints: input.employerContributionBasisPoints ?? null,
          refundsAllowed: input.refundsAllowed ?? true,
          normalRetirementAge: input.normalRetirementAge ?? null,
          accrualRate: input.accrualRate ?? null,
          fundingLevelBasisPoints:
            input.fundingLevelPct == null ? null : basisPointsOf(input.fundingLevelPct),
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, tenantActor, {
          action: 'scheme.created',
          entityType: 'scheme',
          entityId: scheme.id,
          tenantId: scheme.brokerId,
          previousState: null,
          newState: viewOf(scheme),
        });
        return viewOf(scheme);
      });
    },

    async list(actor: ActorContext, query: SchemeListQuery) {
      authorize(actor, 'scheme.list');
      const { employerId } = boundsOf(actor, 'scheme.list');
      const position = keyset(query, { at: schemes.createdAt, id: schemes.id });
      const rows = await withActor(database, actor, async (tx) => {
        const found = await listSchemes(
          tx,
          { ownEmployerId: employerId, employerId: query.employerId },
          position,
        );
        await reads.listed(tx, actor, {
          entityType: 'scheme',
          filters: query,
          returned: found.length,
        });
        return found;
      });
      const result = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: result.items.map(viewOf), nextCursor: result.nextCursor };
    },

    async get(actor: ActorContext, id: string): Promise<SchemeDetailView> {
      authorize(actor, 'scheme.read');
      return withActor(database, actor, async (tx) => {
        const reached = authorizeRow(actor, 'scheme.read', await findSchemeWithMembership(tx, id));
        await reads.viewed(tx, actor, {
          entityType: 'scheme',
          entityId: reached.id,
          tenantId: reached.brokerId,
        });
        return {
          ...viewOf(reached),
          hasMembers: reached.hasMembers,
          windUpNote: reached.windUpNote,
        };
      });
    },

    async update(actor: ActorContext, id: string, change: SchemeChange): Promise<SchemeDetailView> {
      const tenantActor = authorize(actor, 'scheme.update');
      return withActor(database, tenantActor, async (tx) => {
        const existing = authorizeRow(tenantActor, 'scheme.update', await findScheme(tx, id));
        refuseWoundUp(existing);
        if (change.type !== undefined && change.type !== existing.type) {
          // What kind of scheme it is (DB, DC, PRSA, RAC) is the broker's to set (docs/decisions/0043-scheme-type-and-funds-are-the-brokers.md).
          authorizeRow(tenantActor, 'scheme.type.set', existing);
          await requireNoMembers(tx, existing);
        } else if (change.racKind !== undefined && change.racKind !== existing.racKind) {
          // Whether an RAC is a trust decides whether IORP II's registers apply: the broker's
          // to set, as the type is.
          authorizeRow(tenantActor, 'scheme.type.set', existing);
        }
        // A scheme that stops being an RAC drops its kind; one that becomes an RAC must name it.
        const type = change.type ?? (existing.type as SchemeType);
        const racKind = type === 'RAC' ? (change.racKind ?? existing.racKind) : null;
        const problem =
          change.racKind !== undefined && type !== 'RAC'
            ? racKindProblem(type, change.racKind)
            : racKindProblem(type, racKind as RacKind | null);
        if (problem) {
          throw new ValidationError([{ path: 'racKind', code: 'custom', message: problem }]);
        }
        if (change.defaultFundId !== undefined && change.defaultFundId !== existing.defaultFundId) {
          // Where members' money goes is the firm's investment decision, as the funds offered are.
          authorizeRow(tenantActor, 'scheme.default_fund.set', existing);
        }
        await requireDefaultFund(tx, existing, {
          type,
          defaultFundId:
            change.defaultFundId === undefined ? existing.defaultFundId : change.defaultFundId,
        });
        // A scheme that stops being DB drops its accrual rate and funding level.
        refuseDbTermsOutsideDb(type, change);
        const { fundingLevelPct, ...rest } = change;
        const updated = await updateScheme(tx, existing.id, {
          ...rest,
          ...(fundingLevelPct === undefined
            ? {}
            : {
                fundingLevelBasisPoints:
                  fundingLevelPct === null ? null : basisPointsOf(fundingLevelPct),
              }),
          ...(type === 'DB' ? {} : { accrualRate: null, fundingLevelBasisPoints: null }),
          racKind,
          updatedAt: now(),
        });
        await audit.record(tx, tenantActor, {
          action: 'scheme.updated',
          entityType: 'scheme',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: viewOf(existing),
          newState: viewOf(updated),
        });
        return {
          ...viewOf(updated),
          hasMembers: await schemeHasMembers(tx, updated),
          windUpNote: updated.windUpNote,
        };
      });
    },

    /**
     * Soft delete, for a scheme made by mistake: one that never had a member. Any other is wound
     * up instead (docs/decisions/0146-schemes-wound-up-not-deleted.md).
     */
    async remove(actor: ActorContext, id: string): Promise<void> {
      const tenantActor = authorize(actor, 'scheme.delete');
      await withActor(database, tenantActor, async (tx) => {
        const existing = authorizeRow(tenantActor, 'scheme.delete', await findScheme(tx, id));
        const refusal = schemeDeleteRefusal({ hasMembers: await schemeHasMembers(tx, existing) });
        if (refusal) throw new ConflictError(refusal);
        const at = now();
        await softDeleteScheme(tx, existing.id, at);
        await audit.record(tx, tenantActor, {
          action: 'scheme.deleted',
          entityType: 'scheme',
          entityId: existing.id,
          tenantId: existing.brokerId,
          previousState: viewOf(existing),
          newState: null,
        });
      });
    },

    /**
     * Winds the scheme up on a day, not after today nor before the scheme began, for a reason:
     * read only from then on, its duties ended. The audit record keeps the day and the reason's
     * code, never the note.
     */
    async windUp(
      actor: ActorContext,
      id: string,
      input: SchemeWindUpInput,
    ): Promise<SchemeDetailView> {
      const tenantActor = authorize(actor, 'scheme.wind_up');
      return withActor(database, tenantActor, async (tx) => {
        const existing = authorizeRow(
          tenantActor,
          'scheme.wind_up',
          await findSchemeWithMembership(tx, id),
        );
        if (existing.status === 'wound_up') {
          throw new ConflictError(
            `This scheme was wound up on ${dateInWords(existing.woundUpOn as string)}`,
          );
        }
        const at = now();
        const today = todayInIreland(at);
        const began = existing.startDate;
        const problem =
          input.woundUpOn > today
            ? 'Enter a day that is today or earlier'
            : began !== null && input.woundUpOn < began
              ? `Enter a day on or after the scheme began, ${dateInWords(began)}`
              : null;
        if (problem) {
          throw new ValidationError([
            { path: 'woundUpOn', code: 'out_of_range', message: problem },
          ]);
        }
        const wound = await windUpScheme(tx, existing.id, {
          woundUpOn: input.woundUpOn,
          windUpReason: input.reason,
          windUpNote: input.note ?? null,
          updatedAt: at,
        });
        if (!wound) {
          throw new ConflictError('This scheme has just been wound up by someone else');
        }
        await audit.record(tx, tenantActor, {
          action: 'scheme.wound_up',
          entityType: 'scheme',
          entityId: wound.id,
          tenantId: wound.brokerId,
          previousState: { status: existing.status },
          newState: {
            status: wound.status,
            woundUpOn: wound.woundUpOn,
            windUpReason: wound.windUpReason,
          },
        });
        return { ...viewOf(wound), hasMembers: existing.hasMembers, windUpNote: wound.windUpNote };
      });
    },
  };
}

export type SchemesService = ReturnType<typeof createSchemesService>;

/**
 * Refuses any change under a wound-up scheme (docs/decisions/0146-schemes-wound-up-not-deleted.md):
 * its records are kept as they were.
 */
export function refuseWoundUp(scheme: { status: string }): void {
  if (!acceptsChanges(scheme)) throw new ConflictError(WOUND_UP_REFUSAL);
}

/**
 * Refuses a change to a record beneath a scheme (a member, a contribution and its corrections, a
 * fund choice, a switch, a document) when the scheme is wound up, by the same rule and with the
 * same answer as `refuseWoundUp`. The scheme's status is read with a share lock, so a wind-up
 * committed at the same moment cannot let the change through
 * (docs/decisions/0146-schemes-wound-up-not-deleted.md).
 */
export async function refuseChangesBeneath(tx: Transaction, schemeId: string): Promise<void> {
  const scheme = await lockSchemeStatus(tx, schemeId);
  if (scheme) refuseWoundUp(scheme);
}

/** A change of type is refused by the rule the scheme's form shows it by (contracts/organisation.ts). */
async function requireNoMembers(tx: Transaction, scheme: SchemeRow) {
  const fixed = schemeTypeFixedBecause({ hasMembers: await schemeHasMembers(tx, scheme) });
  if (fixed !== null) {
    throw new ValidationError([{ path: 'type', code: 'scheme_has_members', message: fixed }]);
  }
}

/**
 * A scheme's default fund is one of its own open funds (docs/decisions/0127-dc-money.md), and a
 * DB scheme has none: its contributions fund the scheme as a whole and are never invested per
 * member. The default fund cannot be closed (funds.service.ts), so only a new one is looked up.
 */
async function requireDefaultFund(
  tx: Transaction,
  existing: SchemeRow,
  next: { type: SchemeType; defaultFundId: string | null },
) {
  if (next.defaultFundId === null) return;
  if (next.type === 'DB') {
    throw new ValidationError([
      {
        path: 'defaultFundId',
        code: 'not_invested',
        message:
          'A defined benefit scheme invests no member’s money in funds, so it has no default fund',
      },
    ]);
  }
  if (
    next.defaultFundId !== existing.defaultFundId &&
    !(await isOpenFundOf(tx, existing, next.defaultFundId))
  ) {
    throw new ValidationError([
      {
        path: 'defaultFundId',
        code: 'unknown_fund',
        message: 'Choose one of this scheme’s open funds as its default fund',
      },
    ]);
  }
}
