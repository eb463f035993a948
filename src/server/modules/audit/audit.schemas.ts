import { z } from 'zod';
import { pageQuery } from '../../http/pagination.js';
import { text } from '../../http/text.js';

/** Bounded before the date-time pattern runs (decisions.md, issue 13: no pattern sees more). */
const timestamp = text({ max: 40, trim: false }).pipe(z.iso.datetime({ offset: true }));
const reference = text({ max: 64, trim: false });

/** decisions.md §4: filters of the audit read API; `from` inclusive, `to` exclusive. */
export const auditQuery = pageQuery.extend({
  entityType: reference.optional(),
  entityId: reference.optional(),
  actorId: reference.optional(),
  from: timestamp.optional(),
  to: timestamp.optional(),
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
