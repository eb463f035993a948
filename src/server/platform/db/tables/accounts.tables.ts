import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { brokers, employers } from './tenancy.tables.js';

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
    /**
     * Raised by sign-out, deactivation, reactivation, a role change and a password change; a
     * session token carries the epoch it was issued under and is refused once they differ.
     */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    /** Seeded for development and test only; never accepted at sign-in in staging or production. */
    isDevelopmentAccount: boolean('is_development_account').notNull().default(false),
    /**
     * A Member account sees this one member record. Migration 0008 declares its foreign key
     * (member_id, employer_id, broker_id) to members, which is defined further down this file.
     */
    memberId: text('member_id'),
    /**
     * An invited account (status 'invited') can be set up through its e-mailed link until then
     * (72 hours, renewed by a resend); null once the account is set up.
     */
    invitedUntil: timestamp('invited_until', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    // One address signs in to one account: unique among accounts that have been set up. Several
    // firms may have invited the same address; the first invitation accepted wins.
    uniqueIndex('users_email_lower_key')
      .on(sql`lower(${table.email})`)
      .where(sql`${table.status} <> 'invited'`),
    // Within a firm an address is held once, invited or not.
    uniqueIndex('users_tenant_email_lower_key').on(table.brokerId, sql`lower(${table.email})`),
    uniqueIndex('users_member_id_key').on(table.memberId).where(sql`${table.memberId} is not null`),
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
    check('users_status_known', sql`${table.status} in ('invited','active','deactivated')`),
    check(
      'users_invited_until_while_invited',
      sql`(${table.status} = 'invited') = (${table.invitedUntil} is not null)`,
    ),
    check(
      'users_tenant_unless_superadmin',
      sql`(${table.role} = 'SuperAdmin') = (${table.brokerId} is null)`,
    ),
    check(
      'users_member_record_for_members',
      sql`(${table.role} = 'Member') = (${table.memberId} is not null)`,
    ),
    check(
      'users_employer_for_employer_roles',
      sql`(${table.role} in ('EmployerAdmin','EmployerUser','Member')) = (${table.employerId} is not null)`,
    ),
  ],
);
