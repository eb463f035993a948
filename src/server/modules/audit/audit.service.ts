import { and, eq, gte, lt } from 'drizzle-orm';
import type { AuditService } from '../../audit/audit.service.js';
import { createPlatformReadLog } from '../../audit/platform-reads.js';
import type { Database } from '../../db/database.js';
import { auditLog } from '../../db/schema.js';
import { withActor } from '../../db/with-actor.js';
import { keyset, pageFrom } from '../../http/pagination.js';
import type { ActorContext } from '../../tenancy/actor.js';
import { requireRole } from '../../tenancy/authorize.js';
import type { AuditQuery, AuditRecordView } from './audit.schemas.js';

type AuditRow = typeof auditLog.$inferSelect;

const viewOf = (row: AuditRow): AuditRecordView => ({
  id: row.id,
  timestamp: row.timestamp.toISOString(),
  tenantId: row.tenantId,
  actorId: row.actorId,
  actorType: row.actorType,
  actorTenantId: row.actorTenantId,
  action: row.action,
  entityType: row.entityType,
  entityId: row.entityId,
  previousState: row.previousState,
  newState: row.newState,
  ipAddress: row.ipAddress,
  userAgent: row.userAgent,
});

/** decisions.md §3: SuperAdmin reads every tenant's records and the platform's; a BrokerAdmin their own tenant's. */
export function createAuditReadService({
  database,
  audit,
}: {
  database: Database;
  audit: AuditService;
}) {
  const reads = createPlatformReadLog(audit);
  return {
    /** Newest first. */
    async list(actor: ActorContext, query: AuditQuery) {
      requireRole(actor, 'BrokerAdmin');
      const { after, orderBy, take } = keyset(
        query,
        { at: auditLog.timestamp, id: auditLog.id },
        'desc',
      );
      const rows = await withActor(database, actor, async (tx) => {
        const found = await tx
          .select()
          .from(auditLog)
          .where(
            and(
              actor.tenantId === null ? undefined : eq(auditLog.tenantId, actor.tenantId),
              query.entityType === undefined
                ? undefined
                : eq(auditLog.entityType, query.entityType),
              query.entityId === undefined ? undefined : eq(auditLog.entityId, query.entityId),
              query.actorId === undefined ? undefined : eq(auditLog.actorId, query.actorId),
              query.from === undefined ? undefined : gte(auditLog.timestamp, new Date(query.from)),
              query.to === undefined ? undefined : lt(auditLog.timestamp, new Date(query.to)),
              after,
            ),
          )
          .orderBy(...orderBy)
          .limit(take);
        await reads.listed(tx, actor, {
          entityType: 'audit',
          filters: query,
          returned: found.length,
        });
        return found;
      });
      const result = pageFrom(rows, query, (row) => ({ at: row.timestamp, id: row.id }));
      return { items: result.items.map(viewOf), nextCursor: result.nextCursor };
    },
  };
}

export type AuditReadService = ReturnType<typeof createAuditReadService>;
