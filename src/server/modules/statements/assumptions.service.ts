import { createId } from '@paralleldrive/cuid2';
import {
  basisPointsOf,
  percentOf,
  type StatementAssumptionsChange,
  type StatementAssumptionsInput,
  type StatementAssumptionsQuery,
  type StatementAssumptionsView,
} from '../../../contracts/statements.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { statementAssumptions } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { type ActorContext, isPlatformActor } from '../../platform/tenancy/actor.js';
import { authorize } from '../../platform/tenancy/authorize.js';
import {
  type AssumptionsRow,
  findAssumptions,
  insertAssumptions,
  listAssumptions,
  nextVersion,
  updateAssumptions,
  usedAssumptions,
} from './assumptions.data.js';

export function assumptionsViewOf(row: AssumptionsRow, used: boolean): StatementAssumptionsView {
  return {
    id: row.id,
    owner: row.brokerId === null ? 'platform' : 'firm',
    name: row.name,
    version: row.version,
    effectiveFrom: row.effectiveFrom,
    source: row.source,
    bestEstimateReturnPct: percentOf(row.bestEstimateReturnBasisPoints),
    unfavourableReturnPct: percentOf(row.unfavourableReturnBasisPoints),
    inflationPct: percentOf(row.inflationBasisPoints),
    salaryGrowthPct: percentOf(row.salaryGrowthBasisPoints),
    annuityFactor: row.annuityFactorHundredths / 100,
    used,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The figures of a set as its columns hold them. */
function columnsOf(input: StatementAssumptionsChange) {
  return {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.effectiveFrom === undefined ? {} : { effectiveFrom: input.effectiveFrom }),
    ...(input.source === undefined ? {} : { source: input.source }),
    ...(input.bestEstimateReturnPct === undefined
      ? {}
      : { bestEstimateReturnBasisPoints: basisPointsOf(input.bestEstimateReturnPct) }),
    ...(input.unfavourableReturnPct === undefined
      ? {}
      : { unfavourableReturnBasisPoints: basisPointsOf(input.unfavourableReturnPct) }),
    ...(input.inflationPct === undefined
      ? {}
      : { inflationBasisPoints: basisPointsOf(input.inflationPct) }),
    ...(input.salaryGrowthPct === undefined
      ? {}
      : { salaryGrowthBasisPoints: basisPointsOf(input.salaryGrowthPct) }),
    ...(input.annuityFactor === undefined
      ? {}
      : { annuityFactorHundredths: basisPointsOf(input.annuityFactor) }),
  };
}

/**
 * What the audit log keeps of a set: ids, version and figures; the name and source are the
 * firm's own words and are left out (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const auditState = (row: AssumptionsRow) => ({
  id: row.id,
  version: row.version,
  effectiveFrom: row.effectiveFrom,
  bestEstimateReturnBasisPoints: row.bestEstimateReturnBasisPoints,
  unfavourableReturnBasisPoints: row.unfavourableReturnBasisPoints,
  inflationBasisPoints: row.inflationBasisPoints,
  salaryGrowthBasisPoints: row.salaryGrowthBasisPoints,
  annuityFactorHundredths: row.annuityFactorHundredths,
});

export interface AssumptionsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * Projection assumption sets (docs/decisions/0141-pension-benefit-statements.md): the platform's,
 * added by SuperAdmin, and a firm's own, added by its BrokerAdmin. Giving a name again makes its
 * next version; a set is corrected only until a run uses it, then answered 409 for good.
 */
export function createAssumptionsService({ database, audit, now }: AssumptionsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** A set the actor may read: the platform's, or their firm's (row-level security); 404 else. */
  async function readable(tx: Transaction, id: string, forUpdate = false) {
    const row = await findAssumptions(tx, id, { forUpdate });
    if (row === undefined) throw new NotFoundError();
    return row;
  }

  return {
    async create(
      actor: ActorContext,
      input: StatementAssumptionsInput,
    ): Promise<StatementAssumptionsView> {
      authorize(actor, 'statement_assumptions.create');
      return withActor(database, actor, async (tx) => {
        const brokerId = isPlatformActor(actor) ? null : actor.tenantId;
        const at = now();
        const row = await insertAssumptions(tx, {
          id: createId(),
          brokerId,
          version: await nextVersion(tx, brokerId, input.name),
          ...(columnsOf(input) as Required<ReturnType<typeof columnsOf>>),
          createdBy: actor.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, actor, {
          action: 'statement_assumptions.created',
          entityType: 'statement_assumptions',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: null,
          newState: auditState(row),
        });
        return assumptionsViewOf(row, false);
      });
    },

    async list(actor: ActorContext, query: StatementAssumptionsQuery) {
      authorize(actor, 'statement_assumptions.list');
      const position = keyset(query, {
        at: statementAssumptions.createdAt,
        id: statementAssumptions.id,
      });
      const { rows, used } = await withActor(database, actor, async (tx) => {
        const found = await listAssumptions(tx, position);
        await reads.listed(tx, actor, {
          entityType: 'statement_assumptions',
          filters: query,
          returned: found.length,
        });
        return {
          rows: found,
          used: await usedAssumptions(
            tx,
            found.map((row) => row.id),
          ),
        };
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return {
        items: page.items.map((row) => assumptionsViewOf(row, used.has(row.id))),
        nextCursor: page.nextCursor,
      };
    },

    async get(actor: ActorContext, id: string): Promise<StatementAssumptionsView> {
      authorize(actor, 'statement_assumptions.read');
      return withActor(database, actor, async (tx) => {
        const row = await readable(tx, id);
        const used = await usedAssumptions(tx, [row.id]);
        return assumptionsViewOf(row, used.has(row.id));
      });
    },

    /**
     * A correction of a set no run has used. A firm corrects only its own (the platform's answers
     * 404 to it, as row-level security hides it from any write); once used, 409 for good.
     */
    async update(
      actor: ActorContext,
      id: string,
      change: StatementAssumptionsChange,
    ): Promise<StatementAssumptionsView> {
      authorize(actor, 'statement_assumptions.update');
      return withActor(database, actor, async (tx) => {
        // Locked, then runs looked for: a run taking it up waits for this correction, or sees it.
        const existing = await readable(tx, id, true);
        if (!isPlatformActor(actor) && existing.brokerId !== actor.tenantId) {
          throw new NotFoundError();
        }
        if ((await usedAssumptions(tx, [existing.id])).has(existing.id)) {
          throw new ConflictError(
            'A statement run has used this assumption set, so it is never changed: add a new version instead',
          );
        }
        const columns = columnsOf(change);
        const renamed = columns.name !== undefined && columns.name !== existing.name;
        const row = await updateAssumptions(tx, existing.id, {
          ...columns,
          ...(renamed
            ? { version: await nextVersion(tx, existing.brokerId, columns.name as string) }
            : {}),
          updatedAt: now(),
        });
        await audit.record(tx, actor, {
          action: 'statement_assumptions.updated',
          entityType: 'statement_assumptions',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: auditState(existing),
          newState: auditState(row),
        });
        return assumptionsViewOf(row, false);
      });
    },
  };
}
export type AssumptionsService = ReturnType<typeof createAssumptionsService>;
