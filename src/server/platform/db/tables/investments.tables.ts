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
import type { PercentLine } from '../../../../contracts/dc-money-rules.js';
import { decimal6 } from './columns.js';
import { funds } from './funds.tables.js';
import { members } from './members.tables.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/*
 * DC money (docs/decisions/0127-dc-money.md): the prices of a scheme's funds, every movement of a
 * member's units, and the switches members ask for. Every table keys on (broker_id, id), and every
 * foreign key carries broker_id, as the other tenant tables do. Units and prices are
 * `numeric(…, 6)`, read as bigint millionths, never floats.
 */

/**
 * A fund's unit price for a day. One price a day is in force; a correction keeps the price it
 * replaces, marked superseded, and names it in `corrects`.
 */
export const fundPrices = pgTable(
  'fund_prices',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    fundId: text('fund_id').notNull(),
    pricedOn: date('priced_on', { mode: 'string' }).notNull(),
    price: decimal6('price', { precision: 10 }).notNull(),
    /** The price this one corrected, kept beside it. */
    corrects: text('corrects'),
    /** When a correction replaced this price; null while it is in force. */
    supersededAt: timestamp('superseded_at', { withTimezone: true, precision: 3 }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'fund_prices_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'fund_prices_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    foreignKey({
      name: 'fund_prices_fund_of_scheme_fk',
      columns: [table.fundId, table.schemeId, table.brokerId],
      foreignColumns: [funds.id, funds.schemeId, funds.brokerId],
    }),
    foreignKey({
      name: 'fund_prices_corrects_fk',
      columns: [table.brokerId, table.corrects],
      foreignColumns: [table.brokerId, table.id],
    }),
    uniqueIndex('fund_prices_one_in_force_key')
      .on(table.brokerId, table.fundId, table.pricedOn)
      .where(sql`${table.supersededAt} is null`),
    index('fund_prices_scheme_idx').on(table.brokerId, table.schemeId, table.pricedOn),
    check('fund_prices_price_range', sql`${table.price} > 0 and ${table.price} < 10000`),
  ],
);

/**
 * Every movement of a member's units: money in is positive, out negative, in units and in cents.
 * Rows are never updated but to void them; the partial unique index makes each movement, named
 * by its source (`contribution:<id>`, `adjustment:<id>`, `switch:<id>`, `charge:<YYYY-MM>`), be
 * written once among the rows not voided, whichever instance writes it.
 */
export const memberTransactions = pgTable(
  'member_transactions',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    fundId: text('fund_id').notNull(),
    kind: text('kind').notNull(),
    source: text('source').notNull(),
    /** The day of the price the movement was dealt at. */
    dealtOn: date('dealt_on', { mode: 'string' }).notNull(),
    units: decimal6('units', { precision: 18 }).notNull(),
    price: decimal6('price', { precision: 10 }).notNull(),
    /** The price row used: a correction of it finds the movements to replay. */
    priceId: text('price_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    voidedAt: timestamp('voided_at', { withTimezone: true, precision: 3 }),
    /** The correcting price whose replay voided the row. */
    voidedBy: text('voided_by'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'member_transactions_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'member_transactions_member_same_tenant_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    foreignKey({
      name: 'member_transactions_fund_of_scheme_fk',
      columns: [table.fundId, table.schemeId, table.brokerId],
      foreignColumns: [funds.id, funds.schemeId, funds.brokerId],
    }),
    foreignKey({
      name: 'member_transactions_price_fk',
      columns: [table.brokerId, table.priceId],
      foreignColumns: [fundPrices.brokerId, fundPrices.id],
    }),
    uniqueIndex('member_transactions_once_key')
      .on(table.brokerId, table.memberId, table.fundId, table.kind, table.source)
      .where(sql`${table.voidedAt} is null`),
    index('member_transactions_member_idx').on(
      table.brokerId,
      table.memberId,
      table.dealtOn,
      table.id,
    ),
    index('member_transactions_price_idx').on(table.brokerId, table.priceId),
    index('member_transactions_scheme_fund_idx').on(
      table.brokerId,
      table.schemeId,
      table.fundId,
      table.dealtOn,
    ),
    // MEMBER_TRANSACTION_KINDS (src/contracts/investments.ts).
    check(
      'member_transactions_kind_known',
      sql`${table.kind} in ('contribution','switch_out','switch_in','charge','transfer_in','transfer_out','refund','benefit')`,
    ),
    check('member_transactions_source_length', sql`char_length(${table.source}) between 1 and 100`),
    check('member_transactions_price_range', sql`${table.price} > 0 and ${table.price} < 10000`),
  ],
);

/**
 * A member's request to move everything they hold into the funds and percentages of `targets`:
 * pending until every sale and purchase is dealt, and one pending at a time.
 */
export const fundSwitches = pgTable(
  'fund_switches',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    requestedOn: date('requested_on', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    /** `[{ fundId, percent }]`: whole percentages of the scheme's funds, summing to 100. */
    targets: jsonb('targets').$type<PercentLine[]>().notNull(),
    completedOn: date('completed_on', { mode: 'string' }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'fund_switches_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'fund_switches_member_same_tenant_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    uniqueIndex('fund_switches_one_pending_key')
      .on(table.brokerId, table.memberId)
      .where(sql`${table.status} = 'pending'`),
    index('fund_switches_member_idx').on(table.brokerId, table.memberId, table.createdAt, table.id),
    index('fund_switches_scheme_pending_idx')
      .on(table.brokerId, table.schemeId)
      .where(sql`${table.status} = 'pending'`),
    // A switch still pending when its member died is cancelled (docs/decisions/0135-members-lifecycle.md).
    check(
      'fund_switches_status_known',
      sql`${table.status} in ('pending','completed','cancelled')`,
    ),
    check(
      'fund_switches_completed_on',
      sql`(${table.status} = 'completed') = (${table.completedOn} is not null)`,
    ),
    check('fund_switches_targets_list', sql`jsonb_typeof(${table.targets}) = 'array'`),
  ],
);
