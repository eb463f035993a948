import { type EntityRecordedAs, LIST_ENTITY_ID } from '../../../contracts/audit-text.js';
import type { Transaction } from '../db/with-actor.js';
import { type ActorContext, isPlatformActor } from '../tenancy/actor.js';
import type { AuditService } from './audit-log.js';

/**
 * SuperAdmin's actions are audited, and for platform staff reading a tenant's data is an action
 * (docs/api.md, "The audit log"). A read of one record goes into that tenant's chain, where the
 * tenant's BrokerAdmin sees it; a list (which may span tenants) into the platform chain, with
 * the kinds of filter used and how many rows it returned. Reads by the tenant's own people are not recorded.
 */
export function createPlatformReadLog(audit: AuditService) {
  return {
    async viewed(
      tx: Transaction,
      actor: ActorContext,
      read: { entityType: EntityRecordedAs<'viewed'>; entityId: string; tenantId: string | null },
    ): Promise<void> {
      if (!isPlatformActor(actor)) return;
      await audit.record(tx, actor, {
        action: `${read.entityType}.viewed` as const,
        entityType: read.entityType,
        entityId: read.entityId,
        tenantId: read.tenantId,
        previousState: null,
        newState: null,
      });
    },

    /**
     * A list read by platform staff. Only the *kinds* of filter used are recorded, never their
     * values: a search word is personal data (a member's name) and the audit log is permanent
     * (docs/decisions/0029-audit-states-hold-no-personal-data.md). `scope` holds the ids the list
     * was taken under (the scheme of a member list), which are ours, not the user's words.
     */
    async listed(
      tx: Transaction,
      actor: ActorContext,
      read: {
        entityType: EntityRecordedAs<'listed'>;
        scope?: Record<string, string>;
        filters: Readonly<Record<string, unknown>>;
        returned: number;
      },
    ): Promise<void> {
      if (!isPlatformActor(actor)) return;
      await audit.record(tx, actor, {
        action: `${read.entityType}.listed` as const,
        entityType: read.entityType,
        entityId: LIST_ENTITY_ID,
        tenantId: null,
        previousState: null,
        newState: {
          ...(read.scope ? { scope: read.scope } : {}),
          filters: filterKinds(read.filters),
          returned: read.returned,
        },
      });
    },
  };
}

/** The names of the filters given (paging included), sorted; values are never kept. */
function filterKinds(filters: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(filters)
    .filter((name) => filters[name] !== undefined)
    .sort();
}

export type PlatformReadLog = ReturnType<typeof createPlatformReadLog>;
