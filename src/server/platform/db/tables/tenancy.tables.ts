import { index, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

/**
 * The tenancy tree every other table hangs from: the broker firm (the tenant) and its employers
 * (README.md; docs/api.md, "Who may do what").
 */
/** A broker firm: the tenant. Its id is the tenant id every other tenant row carries as broker_id. */
export const brokers = pgTable('brokers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});

export const employers = pgTable(
  'employers',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    name: text('name').notNull(),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'employers_pkey', columns: [table.brokerId, table.id] }),
    // Children reference (id, broker_id) so their broker_id can never differ from their employer's.
    unique('employers_id_broker_id_key').on(table.id, table.brokerId),
    index('employers_broker_id_idx').on(table.brokerId),
    index('employers_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
  ],
);
