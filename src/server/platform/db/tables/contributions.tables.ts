import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { members } from './members.tables.js';
import { brokers, employers } from './tenancy.tables.js';

/**
 * What was paid for a member in one pay period, one row per kind. The amount as first recorded
 * never changes; corrections are adjustments beside it.
 */
export const contributions = pgTable(
  'contributions',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    period: text('period').notNull(),
    kind: text('kind').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The day the money and its schedule arrived, from which it is invested (docs/decisions/0127-dc-money.md). */
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    importId: text('import_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'contributions_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'contributions_member_same_tenant_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    unique('contributions_member_period_kind_key').on(
      table.brokerId,
      table.memberId,
      table.period,
      table.kind,
    ),
    unique('contributions_id_broker_key').on(table.id, table.brokerId),
    index('contributions_scheme_period_idx').on(table.schemeId, table.period),
    check('contributions_period_shape', sql`${table.period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('contributions_kind_known', sql`${table.kind} in ('employee','employer','avc')`),
    check('contributions_amount_not_negative', sql`${table.amountCents} >= 0`),
  ],
);

/** A correction of a contribution: a signed change with its reason; the total never goes below zero. */
export const contributionAdjustments = pgTable(
  'contribution_adjustments',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    contributionId: text('contribution_id').notNull(),
    deltaCents: bigint('delta_cents', { mode: 'number' }).notNull(),
    /** A correction is money received on the day it is recorded (docs/decisions/0127-dc-money.md). */
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    reason: text('reason').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'contribution_adjustments_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'contribution_adjustments_contribution_fk',
      columns: [table.contributionId, table.brokerId],
      foreignColumns: [contributions.id, contributions.brokerId],
    }),
    index('contribution_adjustments_contribution_idx').on(table.contributionId),
    check('contribution_adjustments_delta_nonzero', sql`${table.deltaCents} <> 0`),
    check(
      'contribution_adjustments_reason_length',
      sql`char_length(${table.reason}) between 1 and 500`,
    ),
  ],
);

/**
 * What arrived at the scheme from an employer for one month's deductions
 * (docs/decisions/0136-contribution-remittance.md): one row a payment, never edited. A receipt
 * recorded by mistake is voided, with who voided it and why, and kept.
 */
export const remittanceReceipts = pgTable(
  'remittance_receipts',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    /** The month of deduction the payment is for, `YYYY-MM`. */
    month: text('month').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The bank's or the employer's reference for the payment, as given. */
    reference: text('reference'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    voidedAt: timestamp('voided_at', { withTimezone: true, precision: 3 }),
    voidedBy: text('voided_by'),
    voidReason: text('void_reason'),
  },
  (table) => [
    primaryKey({ name: 'remittance_receipts_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'remittance_receipts_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    index('remittance_receipts_employer_month_idx').on(
      table.brokerId,
      table.employerId,
      table.month,
    ),
    index('remittance_receipts_employer_received_idx').on(
      table.brokerId,
      table.employerId,
      table.receivedOn,
      table.id,
    ),
    check('remittance_receipts_month_shape', sql`${table.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('remittance_receipts_amount_positive', sql`${table.amountCents} > 0`),
    check(
      'remittance_receipts_reference_length',
      sql`${table.reference} is null or char_length(${table.reference}) between 1 and 200`,
    ),
    check(
      'remittance_receipts_voided_whole',
      sql`(${table.voidedAt} is null) = (${table.voidedBy} is null) and (${table.voidedAt} is null) = (${table.voidReason} is null)`,
    ),
    check(
      'remittance_receipts_void_reason_length',
      sql`${table.voidReason} is null or char_length(${table.voidReason}) between 1 and 500`,
    ),
  ],
);
