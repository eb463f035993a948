import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { brokers, employers } from './tenancy.tables.js';

/**
 * A scheme under an employer (docs/api.md, "The firm's structure"). broker_id repeats the
 * employer's, held equal by the composite foreign key.
 */
export const schemes = pgTable(
  'schemes',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** The scheme year's last day, `MM-DD` (docs/decisions/0122-the-scheme-year.md). */
    yearEnd: text('year_end').notNull().default('12-31'),
    /**
     * Whether the scheme's rules refund a leaver with under 2 years' qualifying service their own
     * contributions (docs/decisions/0135-members-lifecycle.md).
     */
    refundsAllowed: boolean('refunds_allowed').notNull().default(true),
    /** An RAC's kind: `trust` (an IORP) or `contract` (an insurer's contract); null otherwise. */
    racKind: text('rac_kind'),
    /**
     * The fund money goes to when a member has made no fund choice (docs/decisions/0127-dc-money.md).
     * One of the scheme's own funds: the foreign key that says so is written by hand in the
     * migration that added the column, as the funds' table refers to this one and the two files
     * cannot import each other.
     */
    defaultFundId: text('default_fund_id'),
    /**
     * The scheme's details as a broker keeps them, each null until given
     * (docs/decisions/0132-employer-and-scheme-details.md): the Pensions Authority's registration
     * number (`SR` and digits), the day it began, and the contribution rates as whole basis
     * points of salary (500 is 5%).
     */
    srNumber: text('sr_number'),
    /**
     * The scheme's Legal Entity Identifier as an IORP, null until given: its row in the register of
     * information (docs/decisions/0139-dora-ict-incidents.md, "The register of information"), held
     * to its shape by src/contracts/lei.ts.
     */
    lei: text('lei'),
    startDate: date('start_date', { mode: 'string' }),
    employeeContributionBasisPoints: integer('employee_contribution_basis_points'),
    employerContributionBasisPoints: integer('employer_contribution_basis_points'),
    /**
     * `active`, or `wound_up` from `wound_up_on` for `wind_up_reason` (a code of
     * src/contracts/scheme-wind-up.ts) with its note: read only from then on
     * (docs/decisions/0146-schemes-wound-up-not-deleted.md).
     */
    status: text('status').notNull().default('active'),
    woundUpOn: date('wound_up_on', { mode: 'string' }),
    windUpReason: text('wind_up_reason'),
    windUpNote: text('wind_up_note'),
    /**
     * What a Pension Benefit Statement projects to (docs/decisions/0141-pension-benefit-statements.md):
     * the scheme's normal retirement age; and a DB scheme's accrual rate (`1/60`) and funding
     * level in whole basis points (9550 is 95.5%). Null until given.
     */
    normalRetirementAge: integer('normal_retirement_age'),
    accrualRate: text('accrual_rate'),
    fundingLevelBasisPoints: integer('funding_level_basis_points'),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'schemes_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'schemes_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    unique('schemes_id_broker_id_key').on(table.id, table.brokerId),
    // Rows under a scheme reference all three, so their employer and tenant are the scheme's.
    unique('schemes_id_employer_broker_key').on(table.id, table.employerId, table.brokerId),
    index('schemes_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    // The reminders job walks every tenant's schemes in this order (governance.data.ts).
    index('schemes_broker_id_idx').on(table.brokerId, table.id),
    index('schemes_employer_idx').on(table.employerId),
    check('schemes_type_known', sql`${table.type} in ('DB','DC','PRSA','RAC')`),
    check(
      'schemes_wind_up_whole',
      sql`${table.status} in ('active','wound_up') and (${table.status} = 'wound_up') = (${table.woundUpOn} is not null) and (${table.woundUpOn} is null) = (${table.windUpReason} is null) and (${table.windUpReason} is null or ${table.windUpReason} in ('employer_ceased','moved_to_another_arrangement','all_benefits_settled','employer_decision','other')) and (${table.windUpNote} is null or char_length(${table.windUpNote}) between 1 and 1000) and (${table.windUpReason} is distinct from 'other' or ${table.windUpNote} is not null)`,
    ),
    check(
      'schemes_normal_retirement_age',
      sql`${table.normalRetirementAge} is null or ${table.normalRetirementAge} between 50 and 99`,
    ),
    check(
      'schemes_accrual_rate_form',
      sql`${table.accrualRate} is null or ${table.accrualRate} ~ '^[1-9][0-9]{0,2}/[1-9][0-9]{0,3}$'`,
    ),
    check(
      'schemes_funding_level',
      sql`${table.fundingLevelBasisPoints} is null or ${table.fundingLevelBasisPoints} between 0 and 100000`,
    ),
    check('schemes_name_length', sql`char_length(${table.name}) between 1 and 200`),
    check(
      'schemes_year_end_form',
      sql`${table.yearEnd} ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'`,
    ),
    check('schemes_sr_number_form', sql`${table.srNumber} ~ '^SR[0-9]{1,8}$'`),
    check(
      'schemes_contribution_rates_range',
      sql`${table.employeeContributionBasisPoints} between 0 and 10000 and ${table.employerContributionBasisPoints} between 0 and 10000`,
    ),
    check(
      'schemes_rac_kind_of_rac',
      sql`(${table.type} = 'RAC') = (${table.racKind} is not null) and (${table.racKind} is null or ${table.racKind} in ('trust','contract'))`,
    ),
  ],
);
