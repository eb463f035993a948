import { z } from 'zod';
import { pageQuery } from '../../http/pagination.js';

/** decisions.md §4: filters of the audit read API; `from` inclusive, `to` exclusive. */
export const auditQuery = pageQuery.extend({
  entityType: z.string().max(64).optional(),
  entityId: z.string().max(64).optional(),
  actorId: z.string().max(64).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditRecordView = z.object({
  id: z.string(),
  timestamp: z.string(),
  tenantId: z.string().nullable(),
  actorId: z.string(),
  actorType: z.string(),
  actorTenantId: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  previousState: z.unknown(),
  newState: z.unknown(),
  ipAddress: z.string(),
  userAgent: z.string(),
});
export type AuditRecordView = z.infer<typeof auditRecordView>;
