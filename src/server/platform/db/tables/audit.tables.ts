import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { brokers } from './tenancy.tables.js';

/** The audit log and its chain checkpoint (docs/decisions/0005-hash-chained-audit-log.md). */
/**
 * An audit record (docs/api.md, "The audit log"), append-only. tenant_id is the tenant the record
 * belongs to (whose chain it extends, and who may read it); actor_tenant_id is the actor's own
 * tenant, null for SuperAdmin.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').notNull(),
    tenantId: text('tenant_id').references(() => brokers.id),
    chainKey: text('chain_key').notNull(),
    chainIndex: bigint('chain_index', { mode: 'number' }).notNull(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
    /**
     * 1: plain SHA-256 (records from before the keyed chain); 2: HMAC-SHA256 under
     * AUDIT_CHAIN_KEY; 3: the same HMAC, covering client_address too. No default, so code that
     * does not seal its records cannot add any.
     */
    hashVersion: integer('hash_version').notNull(),
    /** Fingerprint of the key a version-2 or -3 record is sealed with; null for version 1. */
    keyId: text('key_id'),
    actorId: text('actor_id').notNull(),
    actorType: text('actor_type').notNull(),
    actorTenantId: text('actor_tenant_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    previousState: jsonb('previous_state'),
    newState: jsonb('new_state'),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true, precision: 3 }).notNull(),
    /**
     * The client address the server trusted (request.ip, which honours TRUST_PROXY), beside the
     * x-forwarded-for header in ip_address. Null only on records from before it was kept.
     */
    clientAddress: text('client_address'),
  },
  (table) => [
    // Led by the chain (the tenant, or '@platform'): the key it would be distributed on by tenant
    // (docs/deployment.md, "Scaling past one database").
    primaryKey({ name: 'audit_log_pkey', columns: [table.chainKey, table.id] }),
    unique('audit_log_chain_position_key').on(table.chainKey, table.chainIndex),
    index('audit_log_tenant_time_idx').on(table.tenantId, table.timestamp),
    index('audit_log_entity_idx').on(table.entityType, table.entityId),
    check(
      'audit_log_action_dotted',
      sql`${table.action} ~ '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$'`,
    ),
    check(
      'audit_log_actor_type_role',
      sql`${table.actorType} in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member','Anonymous')`,
    ),
    check(
      'audit_log_chain_key_matches_tenant',
      sql`${table.chainKey} = coalesce(${table.tenantId}, '@platform')`,
    ),
    foreignKey({ columns: [table.actorTenantId], foreignColumns: [brokers.id] }),
    check(
      'audit_log_hash_version_key',
      sql`(${table.hashVersion} = 1 and ${table.keyId} is null) or (${table.hashVersion} in (2, 3) and ${table.keyId} is not null)`,
    ),
    // Only a version-3 record's MAC covers the client address: it always has one, older ones none.
    check(
      'audit_log_client_address_sealed',
      sql`(${table.hashVersion} >= 3) = (${table.clientAddress} is not null)`,
    ),
  ],
);

/**
 * The cut-over to the keyed audit chain (docs/decisions/0041-keyed-audit-chain.md): one row, written
 * once, listing each chain's last plain-hash record and sealed with AUDIT_CHAIN_KEY, so plain
 * hashes are believed only up to those heads. Append-only like audit_log.
 */
export const auditChainCheckpoint = pgTable(
  'audit_chain_checkpoint',
  {
    id: integer('id').primaryKey(),
    keyId: text('key_id').notNull(),
    /** { [chainKey]: { index, id, hash } } */
    heads: jsonb('heads').notNull(),
    mac: text('mac').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [check('audit_chain_checkpoint_single_row', sql`${table.id} = 1`)],
);
