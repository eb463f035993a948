import { createId } from '@paralleldrive/cuid2';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import {
  AFTER_LEAVING_MESSAGE,
  contributionAfterLeaving,
} from '../../../contracts/member-lifecycle-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { CONTRIBUTION_KINDS } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { adjustmentsOf, lockAdjustmentsOf, withAdjustments } from './contributions.data.js';
import {
  addAdjustment,
  addContribution,
  adjustmentSumsOf,
  contributionsOfPeriod,
  gridMembersOf,
  originalSumsOf,
  recordedPeriods,
} from './payroll-grid.data.js';
import type { PayrollInput, PayrollView } from './payroll-grid.schemas.js';

type Kind = (typeof CONTRIBUTION_KINDS)[number];
const FIELD_OF: Record<Kind, 'employeeCents' | 'employerCents' | 'avcCents'> = {
  employee: 'employeeCents',
  employer: 'employerCents',
  avc: 'avcCents',
};

export interface PayrollDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * Contributions as payroll works (docs/decisions/0048-contributions-as-a-payroll-grid.md): one pay
 * period of a whole scheme, read and saved as one grid, and the scheme's totals per period. A saved
 * grid creates what was not yet recorded and corrects what was, each with its own audit record, all
 * in one transaction; an amount once recorded still never changes in place
 * (docs/decisions/0027-member-and-money-tables.md).
 */
export function createPayrollService({ database, audit, now }: PayrollDeps) {
  /** Every live member of the scheme with the period's contributions, corrections applied. */
  async function gridOf(tx: Transaction, schemeId: string, period: string): Promise<PayrollView> {
    const people = await gridMembersOf(tx, schemeId);
    const recorded = await contributionsOfPeriod(tx, schemeId, period);
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
        statusOn: person.statusOn,
        salaryCents: person.salaryCents,
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
          refuseWoundUp(scheme);
          const before = await gridOf(tx, scheme.id, period);
          const current = new Map(before.rows.map((row) => [row.memberId, row]));
          const at = now();
          // Money recorded here arrived today (docs/decisions/0127-dc-money.md).
          const receivedOn = todayInIreland(at);
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
                if (wanted > 0 && contributionAfterLeaving(existing, period)) {
                  throw new ValidationError([
                    {
                      path: `rows.${index}.${FIELD_OF[kind]}`,
                      code: 'after_leaving',
                      message: AFTER_LEAVING_MESSAGE,
                    },
                  ]);
                }
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
            await addContribution(tx, {
              id,
              ...scope,
              memberId: addition.memberId,
              period,
              kind: addition.kind,
              amountCents: addition.amountCents,
              receivedOn,
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
            await lockAdjustmentsOf(tx, correction.contributionId);
            const adjustmentId = createId();
            await addAdjustment(tx, {
              id: adjustmentId,
              brokerId: scheme.brokerId,
              contributionId: correction.contributionId,
              deltaCents: correction.to - correction.from,
              receivedOn,
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
        const recorded = await recordedPeriods(tx, scheme.id, page);
        const shown = recorded.slice(0, page.limit);
        const periods = shown.map((row) => row.period);
        // Amounts with corrections applied: the original plus every adjustment, per kind.
        const originals = await originalSumsOf(tx, scheme.id, periods);
        const deltas = await adjustmentSumsOf(tx, scheme.id, periods);
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
