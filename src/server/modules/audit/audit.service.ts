import {
  actorDescription,
  actorRole,
  auditSummary,
  forwardedForHeader,
  recordTypeLabel,
} from '../../../contracts/audit-text.js';
import { BYTE_ORDER_MARK, csvLine } from '../../../contracts/csv.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { auditLog } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, boundsOf } from '../../platform/tenancy/authorize.js';
import { type AuditRow, auditRecordsForExport, listAuditRecords } from './audit.data.js';
import type { AuditFilters, AuditQuery, AuditRecordView } from './audit.schemas.js';
import { irishLocalTime } from './audit-csv.rules.js';
import { type AuditNames, resolveAuditNames } from './audit-names.data.js';

/**
 * The most records one CSV export holds. The file is built whole (about 15 MB at this size) in
 * one read; more matching records are refused with a request to narrow the filters, rather than
 * cut off silently, so an export is always the whole answer to its filters.
 */
export const MAX_EXPORT_ROWS = 50_000;

const viewOf = (row: AuditRow, names: AuditNames): AuditRecordView => {
  const entity = names.entity(row);
  return {
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
    clientAddress: row.clientAddress,
    userAgent: row.userAgent,
    summary: auditSummary(row.action, row.entityType),
    actorName: names.actorName(row.actorId),
    entityLabel: entity?.label ?? null,
    entityDeleted: entity?.deleted ?? false,
  };
};

/** The filters an export was made with, as its audit record keeps them: ids, a type and times. */
function filtersOf(filters: AuditFilters): Partial<AuditFilters> {
  return Object.fromEntries(
    Object.entries({
      entityType: filters.entityType,
      entityId: filters.entityId,
      actorId: filters.actorId,
      from: filters.from,
      to: filters.to,
    }).filter(([, value]) => value !== undefined),
  );
}

export const EXPORT_COLUMNS = [
  'Time (UTC)',
  'Time (Ireland)',
  'Who',
  'Role',
  'Who (id)',
  'Action',
  'Action code',
  'Record type',
  'Record',
  'Record id',
  'X-Forwarded-For',
  'Client address',
  'Audit record id',
] as const;

/** The audit log as its readers see it (docs/api.md, "The audit log"; who: contracts/policy.ts). */
export function createAuditReadService({
  database,
  audit,
}: {
  database: Database;
  audit: AuditService;
}) {
  const reads = createPlatformReadLog(audit);
  return {
    /** Newest first, each record with its action in words and the names it refers to. */
    async list(actor: ActorContext, query: AuditQuery) {
      authorize(actor, 'audit.read');
      const bounds = boundsOf(actor, 'audit.read');
      const { after, orderBy, take } = keyset(
        query,
        { at: auditLog.timestamp, id: auditLog.id },
        'desc',
      );
      const { rows, names } = await withActor(database, actor, async (tx) => {
        const found = await listAuditRecords(tx, bounds, query, { after, orderBy, take });
        const resolved = await resolveAuditNames(tx, actor, found.slice(0, query.limit));
        await reads.listed(tx, actor, {
          entityType: 'audit',
          filters: query,
          returned: found.length,
        });
        return { rows: found, names: resolved };
      });
      const result = pageFrom(rows, query, (row) => ({ at: row.timestamp, id: row.id }));
      return {
        items: result.items.map((row) => viewOf(row, names)),
        nextCursor: result.nextCursor,
      };
    },

    /**
     * The records the filters match, newest first, as CSV (at most MAX_EXPORT_ROWS). Exporting is
     * itself audited, in the same transaction as the read: `audit.exported` with the filters
     * (ids, a record type and times, never names) and the number of rows.
     */
    async exportCsv(
      actor: ActorContext,
      filters: AuditFilters,
    ): Promise<{ csv: string; rows: number }> {
      authorize(actor, 'audit.export');
      const bounds = boundsOf(actor, 'audit.export');
      return withActor(database, actor, async (tx) => {
        const rows = await auditRecordsForExport(tx, bounds, filters, MAX_EXPORT_ROWS + 1);
        if (rows.length > MAX_EXPORT_ROWS) {
          throw new ValidationError([
            {
              path: 'from',
              code: 'too_many_records',
              message: `More than ${MAX_EXPORT_ROWS.toLocaleString('en-IE')} records match: choose a shorter period or another filter`,
            },
          ]);
        }
        const names = await resolveAuditNames(tx, actor, rows);
        const lines = [BYTE_ORDER_MARK, csvLine(EXPORT_COLUMNS)];
        for (const row of rows) {
          const actorName = names.actorName(row.actorId);
          const entity = names.entity(row);
          lines.push(
            csvLine([
              row.timestamp.toISOString(),
              irishLocalTime(row.timestamp),
              actorDescription({ actorId: row.actorId, actorType: row.actorType, actorName }),
              actorRole(row) ?? '',
              row.actorId,
              auditSummary(row.action, row.entityType),
              row.action,
              recordTypeLabel(row.entityType),
              entity ? `${entity.label}${entity.deleted ? ' (deleted)' : ''}` : '',
              row.entityId,
              // A request that carried no header, or the service itself, has nothing to say
              // here, as on the page.
              forwardedForHeader(row.ipAddress) ?? '',
              row.clientAddress ?? '',
              row.id,
            ]),
          );
        }
        await audit.record(tx, actor, {
          action: 'audit.exported',
          entityType: 'audit',
          entityId: 'export',
          tenantId: actor.tenantId,
          previousState: null,
          newState: { filters: filtersOf(filters), rows: rows.length, format: 'csv' },
        });
        return { csv: lines.join(''), rows: rows.length };
      });
    },
  };
}

export type AuditReadService = ReturnType<typeof createAuditReadService>;
