import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { members } from './members.tables.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/** A fund a scheme offers; members choose among the open funds of their scheme. */
export const funds = pgTable(
  'funds',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    name: text('name').notNull(),
    isin: text('isin'),
    /** The annual management charge, taken monthly by cancelling units (docs/decisions/0127-dc-money.md). */
    annualChargeBasisPoints: integer('annual_charge_basis_points').notNull().default(0),
    ...timestamps,
    closedAt: timestamp('closed_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'funds_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'funds_scheme_same_tenant_fk',
      columns: [table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [schemes.id, schemes.employerId, schemes.brokerId],
    }),
    unique('funds_id_scheme_key').on(table.id, table.schemeId, table.brokerId),
    unique('funds_scheme_name_key').on(table.brokerId, table.schemeId, table.name),
    check('funds_name_length', sql`char_length(${table.name}) between 1 and 200`),
    check(
      'funds_isin_shape',
      sql`${table.isin} is null or ${table.isin} ~ '^[A-Z]{2}[A-Z0-9]{9}[0-9]$'`,
    ),
    check('funds_annual_charge_range', sql`${table.annualChargeBasisPoints} between 0 and 500`),
  ],
);

/** One fund choice of a member, from its effective date; earlier choices are kept as history. */
export const fundAllocations = pgTable(
  'fund_allocations',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'fund_allocations_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'fund_allocations_member_same_tenant_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    unique('fund_allocations_id_scheme_broker_key').on(table.id, table.schemeId, table.brokerId),
    index('fund_allocations_member_idx').on(table.memberId, table.effectiveFrom, table.createdAt),
  ],
);

/** The percentages of one allocation: whole numbers, summing to 100 (checked by the service). */
export const fundAllocationLines = pgTable(
  'fund_allocation_lines',
  {
    allocationId: text('allocation_id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    schemeId: text('scheme_id').notNull(),
    fundId: text('fund_id').notNull(),
    percent: integer('percent').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'fund_allocation_lines_pkey',
      columns: [table.brokerId, table.allocationId, table.fundId],
    }),
    foreignKey({
      name: 'fund_allocation_lines_allocation_fk',
      columns: [table.allocationId, table.schemeId, table.brokerId],
      foreignColumns: [fundAllocations.id, fundAllocations.schemeId, fundAllocations.brokerId],
    }),
    // The fund must be one of the member's own scheme.
    foreignKey({
      name: 'fund_allocation_lines_fund_of_scheme_fk',
      columns: [table.fundId, table.schemeId, table.brokerId],
      foreignColumns: [funds.id, funds.schemeId, funds.brokerId],
    }),
    check('fund_allocation_lines_percent_range', sql`${table.percent} between 1 and 100`),
  ],
);
