import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.tables.js';
import { brokers } from './tenancy.tables.js';

/** The e-mail outbox, written in the transaction of the change a message tells of. */
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
    check(
      'email_outbox_kind_known',
      sql`${table.kind} in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder','second_factor_changed','new_browser_signin','data_protection_reminder','benefit_statement_issued','ict_incident_reminder')`,
    ),
    check(
      'email_outbox_sealed_while_pending',
      sql`(${table.status} = 'pending') = (${table.sealedMessage} is not null)`,
    ),
  ],
);
