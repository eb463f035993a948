import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/** A broker firm: the tenant. Its id is the tenant id every other tenant row carries as broker_id. */
export const brokers = pgTable('brokers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});

export const employers = pgTable(
  'employers',
  {
    id: text('id').primaryKey(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    name: text('name').notNull(),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    // Children reference (id, broker_id) so their broker_id can never differ from their employer's.
    unique('employers_id_broker_id_key').on(table.id, table.brokerId),
    index('employers_broker_id_idx').on(table.brokerId),
    index('employers_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
  ],
);

/**
 * service-spec §2.8, append-only. tenant_id is the tenant the record belongs to (whose chain it
 * extends, and who may read it); actor_tenant_id is the actor's own tenant, null for SuperAdmin.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').references(() => brokers.id),
    chainKey: text('chain_key').notNull(),
    chainIndex: bigint('chain_index', { mode: 'number' }).notNull(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
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
  },
  (table) => [
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
  ],
);

/**
 * People who sign in. broker_id is the tenant (null only for SuperAdmin); employer-scoped roles
 * also carry their employer, kept in the same tenant by the composite foreign key.
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** bcrypt (cost 12) of a SHA-256 pre-hash; null until the user has set a password. */
    passwordHash: text('password_hash'),
    role: text('role').notNull(),
    brokerId: text('broker_id').references(() => brokers.id),
    employerId: text('employer_id'),
    status: text('status').notNull().default('active'),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
    /** Seeded for development and test only; never accepted at sign-in in staging or production. */
    isDevelopmentAccount: boolean('is_development_account').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
    // Rows that belong to a user reference (id, broker_id) so they stay in the user's tenant.
    unique('users_id_broker_id_key').on(table.id, table.brokerId),
    index('users_broker_id_idx').on(table.brokerId),
    index('users_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    foreignKey({
      name: 'users_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    check(
      'users_role_known',
      sql`${table.role} in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member')`,
    ),
    check('users_status_known', sql`${table.status} in ('active','deactivated')`),
    check(
      'users_tenant_unless_superadmin',
      sql`(${table.role} = 'SuperAdmin') = (${table.brokerId} is null)`,
    ),
    check(
      'users_employer_for_employer_roles',
      sql`(${table.role} in ('EmployerAdmin','EmployerUser','Member')) = (${table.employerId} is not null)`,
    ),
  ],
);

/**
 * service-spec §2.9. Only the SHA-256 of a token is kept. broker_id is the user's tenant (null
 * for a SuperAdmin), so the rows fall under the same row-level security as their user.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    brokerId: text('broker_id').references(() => brokers.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    /** Set when a newer request for the same user replaced this token before it was used. */
    invalidatedAt: timestamp('invalidated_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    uniqueIndex('password_reset_tokens_hash_key').on(table.tokenHash),
    index('password_reset_tokens_user_idx').on(table.userId),
    foreignKey({
      name: 'password_reset_tokens_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
    check('password_reset_tokens_hash_shape', sql`${table.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * Transactional outbox: a message is written in the transaction that causes it and delivered
 * afterwards by the mail worker. The message itself (recipient, subject, bodies) is sealed, since
 * it carries a live reset link; it is erased once delivered or no longer worth sending.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: text('id').primaryKey(),
    brokerId: text('broker_id').references(() => brokers.id),
    userId: text('user_id').references(() => users.id),
    kind: text('kind').notNull(),
    sealedMessage: text('sealed_message'),
    status: text('status').notNull().default('pending'),
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull(),
    /** After this the message is pointless (its link has expired) and is dropped unsent. */
    discardAfter: timestamp('discard_after', { withTimezone: true, precision: 3 }).notNull(),
    /** The kind of the last delivery failure (an error code), never the server's words. */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    index('email_outbox_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    foreignKey({
      name: 'email_outbox_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
    check('email_outbox_status_known', sql`${table.status} in ('pending','sent','discarded')`),
    check('email_outbox_kind_known', sql`${table.kind} in ('password_reset','password_changed')`),
    check(
      'email_outbox_sealed_while_pending',
      sql`(${table.status} = 'pending') = (${table.sealedMessage} is not null)`,
    ),
  ],
);

export const SCHEME_TYPES = ['DB', 'DC', 'PRSA', 'RAC'] as const;

/** service-spec §2.5. broker_id repeats the employer's, held equal by the composite foreign key. */
export const schemes = pgTable(
  'schemes',
  {
    id: text('id').primaryKey(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    foreignKey({
      name: 'schemes_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    unique('schemes_id_broker_id_key').on(table.id, table.brokerId),
    index('schemes_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    index('schemes_employer_idx').on(table.employerId),
    check('schemes_type_known', sql`${table.type} in ('DB','DC','PRSA','RAC')`),
    check('schemes_name_length', sql`char_length(${table.name}) between 1 and 200`),
  ],
);
