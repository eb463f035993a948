import { createId } from '@paralleldrive/cuid2';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import {
  AFTER_LEAVING_MESSAGE,
  contributionAfterLeaving,
} from '../../../contracts/member-lifecycle-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import type { CONTRIBUTION_KINDS } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, isAllowed } from '../../platform/tenancy/authorize.js';
import { findMember, findMemberForChange } from '../members/index.js';
import { refuseChangesBeneath, refuseWoundUp } from '../schemes/index.js';
import {
  adjustmentsOf,
  type ContributionWithAdjustments,
  encodeMemberCursor,
  findContribution,
  insertAdjustment,
  insertContribution,
  listContributionsOfMember,
  lockAdjustmentsOf,
  withAdjustments,
} from './contributions.data.js';
import type {
  AdjustmentInput,
  ContributionInput,
  ContributionListQuery,
  ContributionView,
} from './contributions.schemas.js';

/**
 * A contribution as the actor may read it. Why a correction was made, and by whom, are the
 * staff's notes (contribution.notes.read): a member sees that an amount was corrected and by how
 * much, never the note.
 */
const viewOf = (row: ContributionWithAdjustments, actor: ActorContext): ContributionView => {
  const withStaffNotes = isAllowed(actor, 'contribution.notes.read');
  return {
    id: row.id,
    memberId: row.memberId,
    schemeId: row.schemeId,
    period: row.period,
    kind: row.kind as (typeof CONTRIBUTION_KINDS)[number],
    amountCents: row.amountCents,
    originalAmountCents: row.originalAmountCents,
    importId: row.importId,
    receivedOn: row.receivedOn,
    createdAt: row.createdAt.toISOString(),
    adjustments: row.adjustments.map((adjustment) => ({
      id: adjustment.id,
      deltaCents: adjustment.deltaCents,
      ...(withStaffNotes ? { reason: adjustment.reason, createdBy: adjustment.createdBy } : {}),
      createdAt: adjustment.createdAt.toISOString(),
    })),
  };
};

const ALREADY_RECORDED =
  'A contribution of this kind is already recorded for this member and period; correct it with an adjustment';

export interface ContributionsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * Contributions per member, pay period and kind (docs/decisions/0027-member-and-money-tables.md;
 * who may do what: contracts/policy.ts).
 * A recorded amount never changes: a correction is a new, audited adjustment.
 */
export function createContributionsService({ database, audit, now }: ContributionsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  return {
    async listOfMember(actor: ActorContext, memberId: string, query: ContributionListQuery) {
      authorize(actor, 'contribution.list');
      const rows = await withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'contribution.list', await findMember(tx, memberId));
        const found = await listContributionsOfMember(tx, member.id, query);
        const adjustments = await adjustmentsOf(
          tx,
          found.map((row) => row.id),
        );
        await reads.listed(tx, actor, {
          entityType: 'contribution',
          scope: { memberId },
          filters: query,
          returned: found.length,
        });
        return found.map((row) => withAdjustments(row, adjustments));
      });
      const items = rows.slice(0, query.limit);
      const last = items.at(-1);
      return {
        items: items.map((row) => viewOf(row, actor)),
        nextCursor: rows.length > query.limit && last ? encodeMemberCursor(last) : null,
      };
    },

    async create(
      actor: ActorContext,
      memberId: string,
      input: ContributionInput,
    ): Promise<ContributionView> {
      const writer = authorize(actor, 'contribution.create');
      try {
        return await withActor(database, writer, async (tx) => {
          const member = authorizeRow(
            writer,
            'contribution.create',
            await findMemberForChange(tx, memberId),
          );
          refuseWoundUp({ status: member.schemeStatus });
          const at = now();
          // The day the money arrived, from which it is invested (docs/decisions/0127-dc-money.md).
          const today = todayInIreland(at);
          const receivedOn = input.receivedOn ?? today;
          if (receivedOn > today) {
            throw new ValidationError([
              {
                path: 'receivedOn',
                code: 'date_in_future',
                message: 'Enter the day the money arrived: it cannot be after today',
              },
            ]);
          }
          if (contributionAfterLeaving(member, input.period)) {
            throw new ValidationError([
              { path: 'period', code: 'after_leaving', message: AFTER_LEAVING_MESSAGE },
            ]);
          }
          const contribution = await insertContribution(tx, {
            id: createId(),
            brokerId: member.brokerId,
            employerId: member.employerId,
            schemeId: member.schemeId,
            memberId: member.id,
            period: input.period,
            kind: input.kind,
            amountCents: input.amountCents,
            receivedOn,
            createdBy: writer.userId,
            createdAt: at,
          });
          await audit.record(tx, writer, {
            action: 'contribution.created',
            entityType: 'contribution',
            entityId: contribution.id,
            tenantId: contribution.brokerId,
            previousState: null,
            newState: {
              memberId: contribution.memberId,
              period: contribution.period,
              kind: contribution.kind,
              amountCents: contribution.amountCents,
              receivedOn: contribution.receivedOn,
            },
          });
          return viewOf(withAdjustments(contribution, []), actor);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'contributions_member_period_kind_key'))
          throw new ConflictError(ALREADY_RECORDED);
        throw error;
      }
    },

    /** A correction; the corrected amount may reach zero but never go below it. */
    async adjust(
      actor: ActorContext,
      contributionId: string,
      input: AdjustmentInput,
    ): Promise<ContributionView> {
      const writer = authorize(actor, 'contribution.adjust');
      return withActor(database, writer, async (tx) => {
        const contribution = authorizeRow(
          writer,
          'contribution.adjust',
          await findContribution(tx, contributionId),
        );
        await refuseChangesBeneath(tx, contribution.schemeId);
        // Two corrections at once must not both pass the "never below zero" check.
        await lockAdjustmentsOf(tx, contribution.id);
        const before = withAdjustments(contribution, await adjustmentsOf(tx, [contribution.id]));
        if (before.amountCents + input.deltaCents < 0) {
          throw new ValidationError([
            {
              path: 'deltaCents',
              code: 'too_small',
              message: 'This correction would take the contribution below zero',
            },
          ]);
        }
        const at = now();
        const adjustment = await insertAdjustment(tx, {
          id: createId(),
          brokerId: contribution.brokerId,
          contributionId: contribution.id,
          deltaCents: input.deltaCents,
          // A correction is money received the day it is recorded (docs/decisions/0127-dc-money.md).
          receivedOn: todayInIreland(at),
          reason: input.reason,
          createdBy: writer.userId,
          createdAt: at,
        });
        const after = withAdjustments(contribution, [...before.adjustments, adjustment]);
        await audit.record(tx, writer, {
          action: 'contribution.adjusted',
          entityType: 'contribution',
          entityId: contribution.id,
          tenantId: contribution.brokerId,
          previousState: { amountCents: before.amountCents },
          newState: {
            amountCents: after.amountCents,
            deltaCents: input.deltaCents,
            adjustmentId: adjustment.id,
          },
        });
        return viewOf(after, actor);
      });
    },
  };
}

export type ContributionsService = ReturnType<typeof createContributionsService>;
