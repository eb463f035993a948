import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { LIST_ENTITY_ID } from '../../../contracts/audit-text.js';
import { auditLog } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { AuditFilters } from './audit.schemas.js';

export type AuditRow = typeof auditLog.$inferSelect;

/** The conditions of the audit log's filters (docs/api.md, "The audit log"), within reach. */
function conditionsOf(
  reach: { tenantId: string | null },
  filters: AuditFilters,
): Array<SQL | undefined> {
  return [
    reach.tenantId === null ? undefined : eq(auditLog.tenantId, reach.tenantId),
    filters.entityType === undefined ? undefined : eq(auditLog.entityType, filters.entityType),
    filters.entityId === undefined ? undefined : eq(auditLog.entityId, filters.entityId),
    filters.actorId === undefined ? undefined : eq(auditLog.actorId, filters.actorId),
    filters.from === undefined ? undefined : gte(auditLog.timestamp, new Date(filters.from)),
    filters.to === undefined ? undefined : lt(auditLog.timestamp, new Date(filters.to)),
  ];
}

/** A page of the audit records the filters match within the reach, in the keyset's order. */
export function listAuditRecords(
  tx: Transaction,
  reach: { tenantId: string | null },
  filters: AuditFilters,
  page: { after: SQL | undefined; orderBy: SQL[]; take: number },
): Promise<AuditRow[]> {
  return tx
    .select()
    .from(auditLog)
    .where(and(...conditionsOf(reach, filters), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** The columns of the audit records an export writes, newest first, at most `limit` of them. */
export function auditRecordsForExport(
  tx: Transaction,
  reach: { tenantId: string | null },
  filters: AuditFilters,
  limit: number,
) {
  return tx
    .select({
      id: auditLog.id,
      timestamp: auditLog.timestamp,
      actorId: auditLog.actorId,
      actorType: auditLog.actorType,
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      // A list read's state says how many records it returned (audit-names.data.ts); no other
      // record's state is read, so the export holds none.
      newState:
        sql<unknown>`case when ${auditLog.entityId} = ${LIST_ENTITY_ID} then ${auditLog.newState} end`.mapWith(
          auditLog.newState,
        ),
      ipAddress: auditLog.ipAddress,
      clientAddress: auditLog.clientAddress,
    })
    .from(auditLog)
    .where(and(...conditionsOf(reach, filters)))
    .orderBy(desc(auditLog.timestamp), desc(auditLog.id))
    .limit(limit);
}
