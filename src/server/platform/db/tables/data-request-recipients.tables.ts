import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { dataRequests } from './gdpr.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * The recipients of a member's old data told of its rectification (GDPR Art. 19;
 * docs/decisions/0148-rectification-and-recipients.md): one row per recipient of a completed
 * rectification request, an organisation or a role and the day it was told, in the order given
 * (each position once a request).
 * Written with the completion and never changed: the record that the firm told them.
 */
export const dataRequestRecipients = pgTable(
  'data_request_recipients',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    dataRequestId: text('data_request_id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    toldOn: date('told_on', { mode: 'string' }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'data_request_recipients_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'data_request_recipients_request_same_tenant_fk',
      columns: [table.brokerId, table.dataRequestId],
      foreignColumns: [dataRequests.brokerId, dataRequests.id],
    }),
    unique('data_request_recipients_position_key').on(
      table.brokerId,
      table.dataRequestId,
      table.position,
    ),
    check('data_request_recipients_name_length', sql`char_length(${table.name}) between 1 and 200`),
    check('data_request_recipients_position', sql`${table.position} between 0 and 19`),
  ],
);
