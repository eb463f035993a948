import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { brokers } from './tenancy.tables.js';

/**
 * A broker firm's register of personal-data breaches
 * (docs/decisions/0138-personal-data-breaches.md): every breach documented, notified or not
 * (GDPR Art. 33(5)). The deadline is not stored: it is the instant of awareness plus 72 hours.
 */
export const dataBreaches = pgTable(
  'data_breaches',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 3 }),
    becameAwareAt: timestamp('became_aware_at', { withTimezone: true, precision: 3 }).notNull(),
    categoriesOfData: text('categories_of_data').array().notNull(),
    approximateMembers: integer('approximate_members').notNull(),
    /** The firm's schemes whose members' data is involved, where any. */
    schemeIds: text('scheme_ids').array().notNull(),
    riskToPeople: text('risk_to_people').notNull(),
    status: text('status').notNull(),
    dpcNotifiedAt: timestamp('dpc_notified_at', { withTimezone: true, precision: 3 }),
    dpcReference: text('dpc_reference'),
    delayReason: text('delay_reason'),
    membersToldAt: timestamp('members_told_at', { withTimezone: true, precision: 3 }),
    membersToldHow: text('members_told_how'),
    closedAt: timestamp('closed_at', { withTimezone: true, precision: 3 }),
    outcome: text('outcome'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'data_breaches_pkey', columns: [table.brokerId, table.id] }),
    index('data_breaches_recorded_idx').on(table.brokerId, table.createdAt, table.id),
    check('data_breaches_risk', sql`${table.riskToPeople} in ('unlikely', 'risk', 'high')`),
    check('data_breaches_status', sql`${table.status} in ('open', 'notified', 'closed')`),
    check('data_breaches_members_count', sql`${table.approximateMembers} >= 0`),
    check(
      'data_breaches_occurred_before_aware',
      sql`${table.occurredAt} is null or ${table.occurredAt} <= ${table.becameAwareAt}`,
    ),
    check('data_breaches_title_length', sql`char_length(${table.title}) between 1 and 200`),
    check(
      'data_breaches_closed_whole',
      sql`(${table.closedAt} is null) = (${table.outcome} is null) and (${table.closedAt} is null) = (${table.status} <> 'closed')`,
    ),
    check(
      'data_breaches_told_whole',
      sql`(${table.membersToldAt} is null) = (${table.membersToldHow} is null)`,
    ),
  ],
);
