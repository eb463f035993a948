import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.tables.js';
import { dataBreaches } from './data-breaches.tables.js';
import { dataRequests } from './gdpr.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * Each data-protection reminder sent (docs/decisions/0147-data-protection-reminders.md): one row
 * per data-subject request and its due day, or per breach, its stage and the person reminded, so
 * a reminder goes out at most once however often, or on however many instances, the job runs. A
 * request's due day is part of the key because an extension sets a new one, reminded afresh; a
 * breach's deadline never moves, since the instant of awareness is fixed.
 */
export const dataProtectionReminders = pgTable(
  'data_protection_reminders',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    dataRequestId: text('data_request_id'),
    dataBreachId: text('data_breach_id'),
    /** The request's due day the reminder was for; null for a breach. */
    dueOn: date('due_on', { mode: 'string' }),
    stage: text('stage').notNull(),
    userId: text('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'data_protection_reminders_pkey', columns: [table.brokerId, table.id] }),
    uniqueIndex('data_protection_reminders_request_once')
      .on(table.brokerId, table.dataRequestId, table.dueOn, table.stage, table.userId)
      .where(sql`${table.dataRequestId} is not null`),
    uniqueIndex('data_protection_reminders_breach_once')
      .on(table.brokerId, table.dataBreachId, table.stage, table.userId)
      .where(sql`${table.dataBreachId} is not null`),
    check(
      'data_protection_reminders_one_subject',
      sql`(${table.dataRequestId} is null) <> (${table.dataBreachId} is null) and (${table.dataRequestId} is null) = (${table.dueOn} is null)`,
    ),
    check(
      'data_protection_reminders_stage_known',
      sql`${table.stage} in ('before_7','before_2','overdue','hours_48','hours_12')`,
    ),
    foreignKey({
      name: 'data_protection_reminders_request_same_tenant_fk',
      columns: [table.brokerId, table.dataRequestId],
      foreignColumns: [dataRequests.brokerId, dataRequests.id],
    }),
    foreignKey({
      name: 'data_protection_reminders_breach_same_tenant_fk',
      columns: [table.brokerId, table.dataBreachId],
      foreignColumns: [dataBreaches.brokerId, dataBreaches.id],
    }),
    foreignKey({
      name: 'data_protection_reminders_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
  ],
);
