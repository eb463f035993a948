import { createId } from '@paralleldrive/cuid2';
import {
  breachClock,
  clockInWords,
  type DataCategory,
  dpcDeadline,
  dpcNotifiable,
  membersToBeTold,
  needsDelayReason,
  type RiskToPeople,
} from '../../../contracts/data-breach-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { dataBreaches } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { findScheme } from '../schemes/index.js';
import {
  type DataBreachRow,
  findBreach,
  insertBreach,
  listBreaches,
  updateBreach,
} from './data-breaches.data.js';
import type {
  DataBreachClose,
  DataBreachInput,
  DataBreachQuery,
  DataBreachUpdate,
  DataBreachView,
  DpcNotificationInput,
  MembersToldInput,
} from './data-breaches.schemas.js';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

function viewOf(row: DataBreachRow, now: Date): DataBreachView {
  const risk = row.riskToPeople as RiskToPeople;
  const clock = breachClock(
    { becameAwareAt: row.becameAwareAt, riskToPeople: risk, dpcNotifiedAt: row.dpcNotifiedAt },
    now,
  );
  return {
    id: row.id,
    brokerId: row.brokerId,
    title: row.title,
    description: row.description,
    occurredAt: iso(row.occurredAt),
    becameAwareAt: row.becameAwareAt.toISOString(),
    categoriesOfData: row.categoriesOfData as DataCategory[],
    approximateMembers: row.approximateMembers,
    schemeIds: row.schemeIds,
    riskToPeople: risk,
    dpcDeadlineAt: dpcDeadline(row.becameAwareAt).toISOString(),
    dpcNotifiable: dpcNotifiable(risk),
    membersToBeTold: membersToBeTold(risk),
    status: row.status as DataBreachView['status'],
    dpcNotifiedAt: iso(row.dpcNotifiedAt),
    dpcReference: row.dpcReference,
    delayReason: row.delayReason,
    membersToldAt: iso(row.membersToldAt),
    membersToldHow: row.membersToldHow,
    closedAt: iso(row.closedAt),
    outcome: row.outcome,
    clock: { ...clock, words: clockInWords(clock, row.dpcNotifiedAt !== null) },
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * What the audit log keeps of a breach: ids, kinds, counts and instants, never the title, the
 * description, a reference, a reason, how people were told or the outcome, which are free text
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const auditState = (row: DataBreachRow) => ({
  id: row.id,
  status: row.status,
  riskToPeople: row.riskToPeople,
  categoriesOfData: row.categoriesOfData,
  approximateMembers: row.approximateMembers,
  schemeIds: row.schemeIds,
  occurredAt: iso(row.occurredAt),
  becameAwareAt: row.becameAwareAt.toISOString(),
  dpcNotifiedAt: iso(row.dpcNotifiedAt),
  dpcReferenceGiven: row.dpcReference !== null,
  delayReasonGiven: row.delayReason !== null,
  membersToldAt: iso(row.membersToldAt),
  closedAt: iso(row.closedAt),
});

const refuse = (path: string, code: string, message: string): never => {
  throw new ValidationError([{ path, code, message }]);
};

/** An instant reported as past: not after now. */
function notInFuture(path: string, at: Date, now: Date) {
  if (at.getTime() > now.getTime()) {
    refuse(path, 'instant_in_future', 'Enter a date and time that has passed: not in the future');
  }
}

export interface DataBreachesServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The firm's register of personal-data breaches (docs/decisions/0138-personal-data-breaches.md;
 * rules: data-breach-rules.ts): recorded, assessed, notified to the Commission, the people told,
 * and closed. Every breach is kept, notified or not (GDPR Art. 33(5)).
 */
export function createDataBreachesService({ database, audit, now }: DataBreachesServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** Each scheme named must be a live scheme of the firm: a 400 on `schemeIds` otherwise. */
  async function checkSchemes(tx: Transaction, tenantId: string, schemeIds: readonly string[]) {
    for (const schemeId of schemeIds) {
      const scheme = await findScheme(tx, schemeId);
      if (scheme === undefined || scheme.brokerId !== tenantId) {
        refuse('schemeIds', 'unknown_scheme', 'Choose schemes of this firm');
      }
    }
  }

  /** The breach to take a step on, locked; a closed breach takes none (409). */
  async function openBreach(
    tx: Transaction,
    actor: ActorContext,
    action: 'data_breach.update' | 'data_breach.notify' | 'data_breach.members_told',
    id: string,
  ): Promise<DataBreachRow> {
    const breach = authorizeRow(actor, action, await findBreach(tx, id, { forUpdate: true }));
    if (breach.status === 'closed') {
      throw new ConflictError('This breach is closed: its record is kept as it was closed');
    }
    return breach;
  }

  async function recordChange(
    tx: Transaction,
    actor: ActorContext,
    action:
      | 'data_breach.updated'
      | 'data_breach.dpc_notified'
      | 'data_breach.people_told'
      | 'data_breach.closed',
    before: DataBreachRow,
    after: DataBreachRow,
  ) {
    await audit.record(tx, actor, {
      action,
      entityType: 'data_breach',
      entityId: after.id,
      tenantId: after.brokerId,
      previousState: auditState(before),
      newState: auditState(after),
    });
  }

  return {
    async record(actor: ActorContext, input: DataBreachInput): Promise<DataBreachView> {
      const writer = authorize(actor, 'data_breach.create');
      return withActor(database, writer, async (tx) => {
        const at = now();
        const becameAwareAt = new Date(input.becameAwareAt);
        const occurredAt = input.occurredAt ? new Date(input.occurredAt) : null;
        notInFuture('becameAwareAt', becameAwareAt, at);
        if (occurredAt !== null && occurredAt.getTime() > becameAwareAt.getTime()) {
          refuse(
            'occurredAt',
            'occurred_after_aware',
            'A breach happens before the firm becomes aware of it: check both dates',
          );
        }
        const schemeIds = input.schemeIds ?? [];
        await checkSchemes(tx, writer.tenantId, schemeIds);
        const breach = await insertBreach(tx, {
          brokerId: writer.tenantId,
          id: createId(),
          title: input.title,
          description: input.description,
          occurredAt,
          becameAwareAt,
          categoriesOfData: input.categoriesOfData,
          approximateMembers: input.approximateMembers,
          schemeIds,
          riskToPeople: input.riskToPeople,
          status: 'open',
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'data_breach.recorded',
          entityType: 'data_breach',
          entityId: breach.id,
          tenantId: breach.brokerId,
          previousState: null,
          newState: auditState(breach),
        });
        return viewOf(breach, at);
      });
    },

    async list(actor: ActorContext, query: DataBreachQuery) {
      authorize(actor, 'data_breach.list');
      const bounds = boundsOf(actor, 'data_breach.list');
      const position = keyset(query, { at: dataBreaches.createdAt, id: dataBreaches.id }, 'desc');
      return withActor(database, actor, async (tx) => {
        const rows = await listBreaches(tx, bounds.tenantId, position);
        await reads.listed(tx, actor, {
          entityType: 'data_breach',
          filters: query,
          returned: rows.length,
        });
        const at = now();
        const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
        return { items: page.items.map((row) => viewOf(row, at)), nextCursor: page.nextCursor };
      });
    },

    async get(actor: ActorContext, id: string): Promise<DataBreachView> {
      authorize(actor, 'data_breach.read');
      return withActor(database, actor, async (tx) => {
        const breach = authorizeRow(actor, 'data_breach.read', await findBreach(tx, id));
        await reads.viewed(tx, actor, {
          entityType: 'data_breach',
          entityId: breach.id,
          tenantId: breach.brokerId,
        });
        return viewOf(breach, now());
      });
    },

    /** The assessment changed while the breach is not closed; when it became known stays. */
    async update(
      actor: ActorContext,
      id: string,
      input: DataBreachUpdate,
    ): Promise<DataBreachView> {
      const writer = authorize(actor, 'data_breach.update');
      return withActor(database, writer, async (tx) => {
        const breach = await openBreach(tx, writer, 'data_breach.update', id);
        const occurredAt =
          input.occurredAt === undefined
            ? breach.occurredAt
            : input.occurredAt === null
              ? null
              : new Date(input.occurredAt);
        if (occurredAt !== null && occurredAt.getTime() > breach.becameAwareAt.getTime()) {
          refuse(
            'occurredAt',
            'occurred_after_aware',
            'A breach happens before the firm becomes aware of it: check both dates',
          );
        }
        if (input.schemeIds !== undefined) await checkSchemes(tx, writer.tenantId, input.schemeIds);
        const at = now();
        const updated = await updateBreach(tx, breach, {
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.description === undefined ? {} : { description: input.description }),
          occurredAt,
          ...(input.categoriesOfData === undefined
            ? {}
            : { categoriesOfData: input.categoriesOfData }),
          ...(input.approximateMembers === undefined
            ? {}
            : { approximateMembers: input.approximateMembers }),
          ...(input.schemeIds === undefined ? {} : { schemeIds: input.schemeIds }),
          ...(input.riskToPeople === undefined ? {} : { riskToPeople: input.riskToPeople }),
          updatedAt: at,
        });
        await recordChange(tx, writer, 'data_breach.updated', breach, updated);
        return viewOf(updated, at);
      });
    },

    /**
     * The notification to the Commission, once: after the deadline only with the reasons for the
     * delay (GDPR Art. 33(1)).
     */
    async notifyDpc(
      actor: ActorContext,
      id: string,
      input: DpcNotificationInput,
    ): Promise<DataBreachView> {
      const writer = authorize(actor, 'data_breach.notify');
      return withActor(database, writer, async (tx) => {
        const breach = await openBreach(tx, writer, 'data_breach.notify', id);
        if (breach.dpcNotifiedAt !== null) {
          throw new ConflictError('The notification to the Commission is already recorded');
        }
        const at = now();
        const notifiedAt = new Date(input.notifiedAt);
        notInFuture('notifiedAt', notifiedAt, at);
        if (notifiedAt.getTime() < breach.becameAwareAt.getTime()) {
          refuse(
            'notifiedAt',
            'notified_before_aware',
            'The Commission is notified after the firm became aware of the breach: check the date and time',
          );
        }
        if (needsDelayReason(breach.becameAwareAt, notifiedAt) && !input.delayReason) {
          refuse(
            'delayReason',
            'delay_reason_required',
            'The notification came more than 72 hours after the firm became aware: give the reasons for the delay',
          );
        }
        const updated = await updateBreach(tx, breach, {
          status: 'notified',
          dpcNotifiedAt: notifiedAt,
          dpcReference: input.reference ?? null,
          delayReason: input.delayReason ?? null,
          updatedAt: at,
        });
        await recordChange(tx, writer, 'data_breach.dpc_notified', breach, updated);
        return viewOf(updated, at);
      });
    },

    /** The people affected were told, once, and how (GDPR Art. 34(1)). */
    async membersTold(
      actor: ActorContext,
      id: string,
      input: MembersToldInput,
    ): Promise<DataBreachView> {
      const writer = authorize(actor, 'data_breach.members_told');
      return withActor(database, writer, async (tx) => {
        const breach = await openBreach(tx, writer, 'data_breach.members_told', id);
        if (breach.membersToldAt !== null) {
          throw new ConflictError('That the people affected were told is already recorded');
        }
        const at = now();
        const toldAt = new Date(input.toldAt);
        notInFuture('toldAt', toldAt, at);
        if (toldAt.getTime() < breach.becameAwareAt.getTime()) {
          refuse(
            'toldAt',
            'told_before_aware',
            'People are told after the firm became aware of the breach: check the date and time',
          );
        }
        const updated = await updateBreach(tx, breach, {
          membersToldAt: toldAt,
          membersToldHow: input.how,
          updatedAt: at,
        });
        await recordChange(tx, writer, 'data_breach.people_told', breach, updated);
        return viewOf(updated, at);
      });
    },

    /**
     * Closed with its outcome: a breach the Commission is to be told of only once it has been; one
     * judged unlikely to risk people with the reasons kept in the outcome (GDPR Art. 33(5)).
     */
    async close(actor: ActorContext, id: string, input: DataBreachClose): Promise<DataBreachView> {
      const writer = authorize(actor, 'data_breach.close');
      return withActor(database, writer, async (tx) => {
        const breach = authorizeRow(
          writer,
          'data_breach.close',
          await findBreach(tx, id, { forUpdate: true }),
        );
        if (breach.status === 'closed') throw new ConflictError('This breach is already closed');
        if (dpcNotifiable(breach.riskToPeople as RiskToPeople) && breach.dpcNotifiedAt === null) {
          throw new ConflictError(
            'This breach is likely to result in a risk to people: record its notification to the Data Protection Commission before closing it',
          );
        }
        const at = now();
        const updated = await updateBreach(tx, breach, {
          status: 'closed',
          closedAt: at,
          outcome: input.outcome,
          updatedAt: at,
        });
        await recordChange(tx, writer, 'data_breach.closed', breach, updated);
        return viewOf(updated, at);
      });
    },
  };
}

export type DataBreachesService = ReturnType<typeof createDataBreachesService>;
