import { createId } from '@paralleldrive/cuid2';
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  inArray,
  isNull,
  lt,
  sql,
  sum,
} from 'drizzle-orm';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import {
  CONTRIBUTION_KINDS,
  contributionAdjustments,
  contributions,
  members,
} from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findScheme } from '../schemes/index.js';
import { adjustmentsOf, withAdjustments } from './contributions.data.js';
import type { PayrollInput, PayrollView } from './payroll-grid.schemas.js';
import { PAYROLL_ROWS_MAX } from './payroll-grid.schemas.js';

type Kind = (typeof CONTRIBUTION_KINDS)[number];
const FIELD_OF: Record<Kind, 'employeeCents' | 'employerCents' | 'avcCents'> = {
  employee: 'employeeCents',
  employer: 'employerCents',
  avc: 'avcCents',
};

/** The same lock as a single correction takes (contributions.service.ts), per contribution. */
const ADJUSTMENT_LOCK_NAMESPACE = 7_201_192;

export interface PayrollDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * Contributions as payroll works (docs/decisions/0048-contributions-as-a-payroll-grid.md): one pay period of a whole scheme, read and
 * saved as one grid, and the scheme's totals per period. A saved grid creates what was not yet
 * recorded and corrects what was, each with its own audit record, all in one transaction; an
 * amount once recorded still never changes in place (domain.md).
 */
export function createPayrollService({ database, audit, now }: PayrollDeps) {
  /** Every live member of the scheme with the period's contributions, corrections applied. */
  async function gridOf(tx: Transaction, schemeId: string, period: string): Promise<PayrollView> {
    const people = await tx
      .select({
        id: members.id,
        firstName: members.firstName,
        lastName: members.lastName,
        status: members.status,
      })
      .from(members)
      .where(and(eq(members.schemeId, schemeId), isNull(members.deletedAt)))
      .orderBy(asc(members.lastName), asc(members.firstName), asc(members.id))
      .limit(PAYROLL_ROWS_MAX);
    const recorded = await tx
      .select()
      .from(contributions)
      .where(and(eq(contributions.schemeId, schemeId), eq(contributions.period, period)));
    const adjustments = await adjustmentsOf(
      tx,
      recorded.map((row) => row.id),
    );
    const byMember = new Map<
      string,
      Partial<Record<Kind, { contributionId: string; amountCents: number }>>
    >();
    for (const row of recorded) {
      const current = withAdjustments(row, adjustments);
      const cells = byMember.get(row.memberId) ?? {};
      cells[row.kind as Kind] = { contributionId: row.id, amountCents: current.amountCents };
      byMember.set(row.memberId, cells);
    }
    const totals = { employeeCents: 0, employerCents: 0, avcCents: 0, totalCents: 0 };
    const rows = people.map((person) => {
      const cells = byMember.get(person.id) ?? {};
      for (const kind of CONTRIBUTION_KINDS) {
        const amount = cells[kind]?.amountCents ?? 0;
        totals[FIELD_OF[kind]] += amount;
        totals.totalCents += amount;
      }
      return {
        memberId: person.id,
        name: `${person.firstName} ${person.lastName}`,
        status: person.status,
        employee: cells.employee ?? null,
        employer: cells.employer ?? null,
        avc: cells.avc ?? null,
      };
    });
    return { schemeId, period, rows, totals };
  }

  return {
    async read(actor: ActorContext, schemeId: string, period: string): Promise<PayrollView> {
      authorize(actor, 'payroll.read');
      return withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'payroll.read', await findScheme(tx, schemeId));
        return gridOf(tx, scheme.id, period);
      });
    },

    async save(actor: ActorContext, schemeId: string, period: string, input: PayrollInput) {
      const writer = authorize(actor, 'payroll.save');
      const seen = new Set<string>();
      input.rows.forEach((row, index) => {
        if (seen.has(row.memberId)) {
          throw new ValidationError([
            {
              path: `rows.${index}.memberId`,
              code: 'duplicate',
              message: 'This member is in the grid twice',
            },
          ]);
        }
        seen.add(row.memberId);
      });
      try {
        return await withActor(database, writer, async (tx) => {
          const scheme = authorizeRow(writer, 'payroll.save', await findScheme(tx, schemeId));
          const before = await gridOf(tx, scheme.id, period);
          const current = new Map(before.rows.map((row) => [row.memberId, row]));
          const at = now();
          let created = 0;
          let corrected = 0;
          const corrections: Array<{ contributionId: string; from: number; to: number }> = [];
          const additions: Array<{ memberId: string; kind: Kind; amountCents: number }> = [];
          input.rows.forEach((row, index) => {
            const existing = current.get(row.memberId);
            if (!existing) {
              throw new ValidationError([
                {
                  path: `rows.${index}.memberId`,
                  code: 'unknown_member',
                  message: 'This is not a member of this scheme',
                },
              ]);
            }
            for (const kind of CONTRIBUTION_KINDS) {
              const wanted = row[FIELD_OF[kind]];
              if (wanted === undefined || wanted === null) continue;
              const cell = existing[kind];
              if (cell === null) {
                if (wanted > 0)
                  additions.push({ memberId: row.memberId, kind, amountCents: wanted });
              } else if (cell.amountCents !== wanted) {
                corrections.push({
                  contributionId: cell.contributionId,
                  from: cell.amountCents,
                  to: wanted,
                });
              }
            }
          });
          if (corrections.length > 0 && !input.reason) {
            throw new ValidationError([
              {
                path: 'reason',
                code: 'required',
                message: 'Say why amounts already recorded are being corrected',
              },
            ]);
          }
          const scope = {
            brokerId: scheme.brokerId,
            employerId: scheme.employerId,
            schemeId: scheme.id,
          };
          for (const addition of additions) {
            const id = createId();
            await tx.insert(contributions).values({
              id,
              ...scope,
              memberId: addition.memberId,
              period,
              kind: addition.kind,
              amountCents: addition.amountCents,
              createdBy: writer.userId,
              createdAt: at,
            });
            await audit.record(tx, writer, {
              action: 'contribution.created',
              entityType: 'contribution',
              entityId: id,
              tenantId: scheme.brokerId,
              previousState: null,
              newState: {
                memberId: addition.memberId,
                period,
                kind: addition.kind,
                amountCents: addition.amountCents,
                via: 'payroll_grid',
              },
            });
            created += 1;
          }
          for (const correction of corrections) {
            await tx.execute(
              sql`select pg_advisory_xact_lock(${ADJUSTMENT_LOCK_NAMESPACE}, hashtext(${correction.contributionId}))`,
            );
            const adjustmentId = createId();
            await tx.insert(contributionAdjustments).values({
              id: adjustmentId,
              brokerId: scheme.brokerId,
              contributionId: correction.contributionId,
              deltaCents: correction.to - correction.from,
              reason: input.reason as string,
              createdBy: writer.userId,
              createdAt: at,
            });
            await audit.record(tx, writer, {
              action: 'contribution.adjusted',
              entityType: 'contribution',
              entityId: correction.contributionId,
              tenantId: scheme.brokerId,
              previousState: { amountCents: correction.from },
              newState: {
                amountCents: correction.to,
                deltaCents: correction.to - correction.from,
                adjustmentId,
                via: 'payroll_grid',
              },
            });
            corrected += 1;
          }
          return { ...(await gridOf(tx, scheme.id, period)), created, corrected };
        });
      } catch (error) {
        // Someone else recorded one of these cells since the grid was read: read it again.
        if (isUniqueViolation(error, 'contributions_member_period_kind_key')) {
          throw new ConflictError(
            'Someone recorded contributions for this period meanwhile. Reload the grid and try again.',
          );
        }
        throw error;
      }
    },

    /** The scheme's totals per pay period, newest first, a page at a time. */
    async periods(actor: ActorContext, schemeId: string, page: { limit: number; cursor?: string }) {
      authorize(actor, 'payroll.periods.list');
      return withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'payroll.periods.list', await findScheme(tx, schemeId));
        const recorded = await tx
          .select({
            period: contributions.period,
            memberCount: countDistinct(contributions.memberId),
            rows: count(),
          })
          .from(contributions)
          .where(
            and(
              eq(contributions.schemeId, scheme.id),
              page.cursor === undefined ? undefined : lt(contributions.period, page.cursor),
            ),
          )
          .groupBy(contributions.period)
          .orderBy(desc(contributions.period))
          .limit(page.limit + 1);
        const shown = recorded.slice(0, page.limit);
        const periods = shown.map((row) => row.period);
        // Amounts with corrections applied: the original plus every adjustment, per kind.
        const originals =
          periods.length === 0
            ? []
            : await tx
                .select({
                  period: contributions.period,
                  kind: contributions.kind,
                  cents: sum(contributions.amountCents),
                })
                .from(contributions)
                .where(
                  and(
                    eq(contributions.schemeId, scheme.id),
                    inArray(contributions.period, periods),
                  ),
                )
                .groupBy(contributions.period, contributions.kind);
        const deltas =
          periods.length === 0
            ? []
            : await tx
                .select({
                  period: contributions.period,
                  kind: contributions.kind,
                  cents: sum(contributionAdjustments.deltaCents),
                })
                .from(contributionAdjustments)
                .innerJoin(
                  contributions,
                  eq(contributions.id, contributionAdjustments.contributionId),
                )
                .where(
                  and(
                    eq(contributions.schemeId, scheme.id),
                    inArray(contributions.period, periods),
                  ),
                )
                .groupBy(contributions.period, contributions.kind);
        const items = shown.map((row) => {
          const totals = { employeeCents: 0, employerCents: 0, avcCents: 0, totalCents: 0 };
          for (const part of [...originals, ...deltas]) {
            if (part.period !== row.period) continue;
            const amount = Number(part.cents ?? 0);
            totals[FIELD_OF[part.kind as Kind]] += amount;
            totals.totalCents += amount;
          }
          return {
            schemeId: scheme.id,
            period: row.period,
            ...totals,
            memberCount: row.memberCount,
          };
        });
        return {
          items,
          nextCursor: recorded.length > page.limit ? (shown.at(-1)?.period ?? null) : null,
        };
      });
    },
  };
}

export type PayrollService = ReturnType<typeof createPayrollService>;
