import { createId } from '@paralleldrive/cuid2';
import type { PageQuery } from '../../../contracts/pages.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { brokers } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import {
  type BrokerRow,
  findBroker,
  insertBroker,
  listBrokers,
  updateBroker,
} from './brokers.data.js';
import type { BrokerInput, BrokerLeiInput, BrokerView } from './brokers.schemas.js';

const viewOf = (row: BrokerRow): BrokerView => ({
  id: row.id,
  name: row.name,
  lei: row.lei,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export interface BrokersServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** Broker firms, the tenants (docs/api.md, "The firm's structure"; who: contracts/policy.ts). */
export function createBrokersService({ database, audit, now }: BrokersServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /**
   * A change to the firm's record by an action the actor was authorised for, audited as
   * `broker.updated` with the record before and after, in one transaction.
   */
  const change = (
    actor: ActorContext,
    action: 'broker.update' | 'broker.lei.set',
    brokerId: string,
    values: { name: string } | { lei: string | null },
  ) =>
    withActor(database, actor, async (tx) => {
      const existing = authorizeRow(actor, action, await findBroker(tx, brokerId));
      const updated = await updateBroker(tx, brokerId, { ...values, updatedAt: now() });
      await audit.record(tx, actor, {
        action: 'broker.updated',
        entityType: 'broker',
        entityId: brokerId,
        tenantId: brokerId,
        previousState: viewOf(existing),
        newState: viewOf(updated),
      });
      return viewOf(updated);
    });

  return {
    async create(actor: ActorContext, input: BrokerInput): Promise<BrokerView> {
      authorize(actor, 'broker.create');
      return withActor(database, actor, async (tx) => {
        const at = now();
        const broker = await insertBroker(tx, {
          id: createId(),
          name: input.name,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, actor, {
          action: 'broker.created',
          entityType: 'broker',
          entityId: broker.id,
          tenantId: broker.id,
          previousState: null,
          newState: viewOf(broker),
        });
        return viewOf(broker);
      });
    },

    async list(actor: ActorContext, page: PageQuery) {
      authorize(actor, 'broker.list');
      const position = keyset(page, { at: brokers.createdAt, id: brokers.id });
      const rows = await withActor(database, actor, async (tx) => {
        const found = await listBrokers(tx, position);
        await reads.listed(tx, actor, {
          entityType: 'broker',
          filters: page,
          returned: found.length,
        });
        return found;
      });
      const result = pageFrom(rows, page, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: result.items.map(viewOf), nextCursor: result.nextCursor };
    },

    async get(actor: ActorContext, brokerId: string): Promise<BrokerView> {
      authorize(actor, 'broker.read');
      const row = await withActor(database, actor, async (tx) => {
        const reached = authorizeRow(actor, 'broker.read', await findBroker(tx, brokerId));
        await reads.viewed(tx, actor, {
          entityType: 'broker',
          entityId: reached.id,
          tenantId: reached.id,
        });
        return reached;
      });
      return viewOf(row);
    },

    async update(actor: ActorContext, brokerId: string, input: BrokerInput): Promise<BrokerView> {
      authorize(actor, 'broker.update');
      return change(actor, 'broker.update', brokerId, { name: input.name });
    },

    /**
     * The firm's LEI, set or cleared (docs/decisions/0139-dora-ict-incidents.md, "The register of
     * information"): the firm's BrokerAdmin sets it, as the platform renames the firm. An LEI is
     * no one's personal data, so the audit record keeps it.
     */
    async setLei(
      actor: ActorContext,
      brokerId: string,
      input: BrokerLeiInput,
    ): Promise<BrokerView> {
      authorize(actor, 'broker.lei.set');
      return change(actor, 'broker.lei.set', brokerId, { lei: input.lei });
    },
  };
}

export type BrokersService = ReturnType<typeof createBrokersService>;
