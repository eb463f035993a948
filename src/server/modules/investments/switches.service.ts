import { createId } from '@paralleldrive/cuid2';
import { holdsUnits } from '../../../contracts/dc-money-rules.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { fundSwitches } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findMember, findMemberForChange } from '../members/index.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { fundNames } from './holdings.data.js';
import { NOT_INVESTED } from './holdings.service.js';
import type { SwitchInput, SwitchListQuery, SwitchView } from './investments.schemas.js';
import {
  insertSwitch,
  openFundsOf,
  pendingSwitchOf,
  type SwitchRow,
  switchesOfMember,
} from './switches.data.js';

const ONE_PENDING =
  'A switch of this member’s funds is already waiting to be carried out: it must finish before another is asked for';

const viewOf = (row: SwitchRow, names: ReadonlyMap<string, string>): SwitchView => ({
  id: row.id,
  memberId: row.memberId,
  status: row.status as SwitchView['status'],
  requestedOn: row.requestedOn,
  completedOn: row.completedOn,
  to: row.targets.map((line) => ({
    fundId: line.fundId,
    fundName: names.get(line.fundId) ?? '',
    percent: line.percent,
  })),
});

export interface SwitchesServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * Switches of what a member holds into other funds of their scheme
 * (docs/decisions/0127-dc-money.md). Asking records the switch as pending; the settlement
 * (ledger.service.ts) sells and buys once the prices are in.
 */
export function createSwitchesService({ database, audit, now }: SwitchesServiceDeps) {
  const reads = createPlatformReadLog(audit);

  return {
    async request(actor: ActorContext, memberId: string, input: SwitchInput): Promise<SwitchView> {
      const writer = authorize(actor, 'fund_switch.request');
      try {
        return await withActor(database, writer, async (tx) => {
          const member = authorizeRow(
            writer,
            'fund_switch.request',
            await findMemberForChange(tx, memberId),
          );
          refuseWoundUp({ status: member.schemeStatus });
          const scheme = await findScheme(tx, member.schemeId);
          if (scheme && !holdsUnits(scheme.type)) throw new ConflictError(NOT_INVESTED);
          const open = await openFundsOf(
            tx,
            { brokerId: member.brokerId, id: member.schemeId },
            input.to.map((line) => line.fundId),
          );
          const unknown = input.to.flatMap((line, index) =>
            open.has(line.fundId)
              ? []
              : [
                  {
                    path: `to.${index}.fundId`,
                    code: 'unknown_fund',
                    message: 'Choose an open fund of the member’s scheme',
                  },
                ],
          );
          if (unknown.length > 0) throw new ValidationError(unknown);
          if (await pendingSwitchOf(tx, member)) throw new ConflictError(ONE_PENDING);
          const at = now();
          const row = await insertSwitch(tx, {
            brokerId: member.brokerId,
            id: createId(),
            employerId: member.employerId,
            schemeId: member.schemeId,
            memberId: member.id,
            requestedOn: todayInIreland(at),
            status: 'pending',
            targets: input.to.map(({ fundId, percent }) => ({ fundId, percent })),
            completedOn: null,
            createdBy: writer.userId,
            createdAt: at,
            updatedAt: at,
          });
          await audit.record(tx, writer, {
            action: 'fund_switch.requested',
            entityType: 'fund_switch',
            entityId: row.id,
            tenantId: row.brokerId,
            previousState: null,
            newState: { memberId: row.memberId, requestedOn: row.requestedOn, to: row.targets },
          });
          return viewOf(row, open);
        });
      } catch (error) {
        // Two asked at once: the second finds the first's pending switch in the index.
        if (isUniqueViolation(error, 'fund_switches_one_pending_key')) {
          throw new ConflictError(ONE_PENDING);
        }
        throw error;
      }
    },

    async listOfMember(actor: ActorContext, memberId: string, query: SwitchListQuery) {
      authorize(actor, 'fund_switch.list');
      const position = keyset(query, { at: fundSwitches.createdAt, id: fundSwitches.id }, 'desc');
      const { rows, names } = await withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'fund_switch.list', await findMember(tx, memberId));
        const found = await switchesOfMember(tx, member, position);
        await reads.listed(tx, actor, {
          entityType: 'fund_switch',
          scope: { memberId: member.id },
          filters: query,
          returned: found.length,
        });
        return {
          rows: found,
          names: await fundNames(
            tx,
            member.brokerId,
            found.flatMap((row) => row.targets.map((line) => line.fundId)),
          ),
        };
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: page.items.map((row) => viewOf(row, names)), nextCursor: page.nextCursor };
    },
  };
}

export type SwitchesService = ReturnType<typeof createSwitchesService>;
