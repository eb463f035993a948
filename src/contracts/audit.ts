import { z } from 'zod';
import { text } from './text.js';

/** Bounded before the date-time pattern runs (docs/decisions/0034-linear-patterns.md: no pattern sees more). */
const timestamp = text({ max: 40, trim: false }).pipe(z.iso.datetime({ offset: true }));
/**
 * An id as the service writes them (CUID2, a key fingerprint, `system`, `list`): one word, so a
 * filter value can be kept in the record of an export without ever being someone's words.
 */
const reference = text({ max: 64, trim: false }).regex(
  /^[A-Za-z0-9_-]+$/,
  'Choose a record or a person from the list',
);
/** A record type: one part of a dotted action name (docs/api.md, "The audit log"). */
const recordType = text({ max: 64, trim: false }).regex(
  /^[a-z][a-z0-9_]*$/,
  'Choose a kind of record from the list',
);

/**
 * Filters of the audit read API (docs/api.md, "The audit log"); `from` inclusive, `to` exclusive.
 */
export const auditFilters = z.object({
  entityType: recordType.optional(),
  entityId: reference.optional(),
  actorId: reference.optional(),
  from: timestamp.optional(),
  to: timestamp.optional(),
});
export type AuditFilters = z.infer<typeof auditFilters>;

/**
 * A record as `GET /api/audit` answers it, the one type of it for the server, which writes it,
 * and the web's audit page and dashboard, which read it: ids as kept, with words and names
 * resolved when read.
 */
export const auditRecordView = z.object({
  id: z.string(),
  timestamp: z.string(),
  tenantId: z
    .string()
    .nullable()
    .describe('The chain it belongs to: the tenant acted in; null for platform-level entities.'),
  actorId: z.string(),
  actorType: z.string(),
  actorTenantId: z
    .string()
    .nullable()
    .describe('The actor’s own tenant; null for a SuperAdmin and for the system.'),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  previousState: z.unknown(),
  newState: z.unknown(),
  ipAddress: z.string().describe('The x-forwarded-for header as sent (or unknown).'),
  clientAddress: z
    .string()
    .nullable()
    .describe(
      'The client address the server trusted (the socket, or what a TRUST_PROXY peer forwarded); null on records written before it was kept.',
    ),
  userAgent: z.string(),
  summary: z.string().describe('The action in words (src/contracts/audit-text.ts).'),
  actorName: z
    .string()
    .nullable()
    .describe(
      'The acting user’s name, resolved when read and only within the reader’s tenant; null for the system, anonymous requests, and accounts the reader cannot see.',
    ),
  entityLabel: z
    .string()
    .nullable()
    .describe(
      'The affected record’s name (a member’s, a scheme’s…), resolved when read and only within the reader’s tenant; null when it has none or the reader cannot see it.',
    ),
  entityDeleted: z
    .boolean()
    .describe('The affected record, or a record it belongs to, has been deleted since.'),
});
export type AuditRecordView = z.infer<typeof auditRecordView>;
