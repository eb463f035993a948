import type { Transaction } from '../db/with-actor.js';
import { type ActorContext, isPlatformActor } from '../tenancy/actor.js';
import type { AuditService } from './audit.service.js';

/**
 * service-spec §5.4.5: SuperAdmin's actions are audited, and for platform staff reading a
 * tenant's data is an action. A read of one record goes into that tenant's chain, where the
 * tenant's BrokerAdmin sees it; a list (which may span tenants) into the platform chain, with
 * the query and how many rows it returned. Reads by the tenant's own people are not recorded.
 */
export function createPlatformReadLog(audit: AuditService) {
  return {
    async viewed(
      tx: Transaction,
      actor: ActorContext,
      read: { entityType: string; entityId: string; tenantId: string | null },
    ): Promise<void> {
      if (!isPlatformActor(actor)) return;
      await audit.record(tx, actor, {
        action: `${read.entityType}.viewed`,
        entityType: read.entityType,
        entityId: read.entityId,
        tenantId: read.tenantId,
        previousState: null,
        newState: null,
      });
    },

    async listed(
      tx: Transaction,
      actor: ActorContext,
      read: { entityType: string; query: Record<string, unknown>; returned: number },
    ): Promise<void> {
      if (!isPlatformActor(actor)) return;
      await audit.record(tx, actor, {
        action: `${read.entityType}.listed`,
        entityType: read.entityType,
        entityId: 'list',
        tenantId: null,
        previousState: null,
        newState: { query: read.query, returned: read.returned },
      });
    },
  };
}

export type PlatformReadLog = ReturnType<typeof createPlatformReadLog>;
