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
      sql`${table.actorType} in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member')`,
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
    index('users_broker_id_idx').on(table.brokerId),
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
