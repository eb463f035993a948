import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { members } from './members.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * A member's life in the scheme (docs/decisions/0135-members-lifecycle.md): every change of
 * status with its day, never edited; a correction is a change of its own that names the one it
 * undoes.
 */
export const memberStatusChanges = pgTable(
  'member_status_changes',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    kind: text('kind').notNull(),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    /** For a transfer out: the scheme or arrangement receiving the value. */
    receivingArrangement: text('receiving_arrangement'),
    /** For a correction: why the change was undone. */
    reason: text('reason'),
    /** For a correction: the change it undoes. */
    correctsId: text('corrects_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'member_status_changes_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'member_status_changes_member_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    index('member_status_changes_member_idx').on(table.brokerId, table.memberId, table.createdAt),
    // A change is undone once.
    uniqueIndex('member_status_changes_corrects_key')
      .on(table.brokerId, table.correctsId)
      .where(sql`${table.correctsId} is not null`),
    check(
      'member_status_changes_kind_known',
      sql`${table.kind} in ('left','rejoined','preserved','refunded','transferred_out','retired','died','corrected')`,
    ),
    check(
      'member_status_changes_correction_shape',
      sql`(${table.kind} = 'corrected') = (${table.correctsId} is not null and ${table.reason} is not null)`,
    ),
  ],
);

/**
 * Money paid out of a member's benefit: a refund of contributions, a transfer out, or a benefit on
 * retirement or death. In a scheme that holds units, the member's units are sold from `from_on`
 * through the ledger (source `payout:<id>`) and the payout is `paid` once they are; a DB scheme's
 * is paid as recorded.
 */
export const memberPayouts = pgTable(
  'member_payouts',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    /** The change of status that made it. */
    changeId: text('change_id').notNull(),
    kind: text('kind').notNull(),
    fromOn: date('from_on', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    /**
     * What the member's benefit was worth on `from_on` when the payout was recorded, before any
     * unit was sold for it: the funds at their latest prices and the money not yet invested; null
     * in a DB scheme.
     */
    valueAtDateCents: bigint('value_at_date_cents', { mode: 'number' }),
    paidCents: bigint('paid_cents', { mode: 'number' }),
    paidOn: date('paid_on', { mode: 'string' }),
    /** A refund's parts: `{ ownContributionsCents, grossCents, taxCents, netCents }`. */
    refund: jsonb('refund').$type<{
      ownContributionsCents: number;
      grossCents: number;
      taxCents: number;
      netCents: number;
    }>(),
    /** Set when a correction undid the change that made it, before anything was sold. */
    voidedAt: timestamp('voided_at', { withTimezone: true, precision: 3 }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'member_payouts_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'member_payouts_member_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    index('member_payouts_member_idx').on(table.brokerId, table.memberId),
    index('member_payouts_scheme_pending_idx')
      .on(table.brokerId, table.schemeId)
      .where(sql`${table.status} = 'pending' and ${table.voidedAt} is null`),
    check('member_payouts_kind_known', sql`${table.kind} in ('refund','transfer_out','benefit')`),
    check('member_payouts_status_known', sql`${table.status} in ('pending','paid')`),
    check(
      'member_payouts_paid_shape',
      sql`(${table.status} = 'paid') = (${table.paidOn} is not null and ${table.paidCents} is not null)`,
    ),
  ],
);

/** The people to contact about a member's death benefits. Personal data: never audited. */
export const memberDependants = pgTable(
  'member_dependants',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    name: text('name').notNull(),
    relationship: text('relationship').notNull(),
    phone: text('phone'),
    email: text('email'),
    address: text('address'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'member_dependants_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'member_dependants_member_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    index('member_dependants_member_idx').on(table.brokerId, table.memberId),
  ],
);
