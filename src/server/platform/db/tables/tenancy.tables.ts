import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

/**
 * The tenancy tree every other table hangs from: the broker firm (the tenant) and its employers
 * (README.md; docs/api.md, "Who may do what").
 */
/** A broker firm: the tenant. Its id is the tenant id every other tenant row carries as broker_id. */
export const brokers = pgTable('brokers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /**
   * The firm's Legal Entity Identifier, null until given: the entity maintaining the register of
   * information (docs/decisions/0139-dora-ict-incidents.md, "The register of information"), held
   * to its shape by src/contracts/lei.ts.
   */
  lei: text('lei'),
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
    /**
     * The employer's details as a broker keeps them, each null until given, in the forms
     * src/contracts/organisation.ts writes them (docs/decisions/0132-employer-and-scheme-details.md).
     */
    croNumber: text('cro_number'),
    employerRegistrationNumber: text('employer_registration_number'),
    registeredAddress: text('registered_address'),
    contactName: text('contact_name'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    payrollFrequency: text('payroll_frequency'),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'employers_pkey', columns: [table.brokerId, table.id] }),
    // Children reference (id, broker_id) so their broker_id can never differ from their employer's.
    unique('employers_id_broker_id_key').on(table.id, table.brokerId),
    index('employers_broker_id_idx').on(table.brokerId),
    index('employers_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    check('employers_cro_number_form', sql`${table.croNumber} ~ '^[0-9]{1,8}$'`),
    check(
      'employers_registration_number_form',
      sql`${table.employerRegistrationNumber} ~ '^[0-9]{7}[A-Z]{1,2}$'`,
    ),
    check(
      'employers_registered_address_length',
      sql`char_length(${table.registeredAddress}) between 1 and 500`,
    ),
    check(
      'employers_contact_name_length',
      sql`char_length(${table.contactName}) between 1 and 200`,
    ),
    check(
      'employers_contact_email_length',
      sql`char_length(${table.contactEmail}) between 3 and 320`,
    ),
    check(
      'employers_contact_phone_length',
      sql`char_length(${table.contactPhone}) between 7 and 30`,
    ),
    check(
      'employers_payroll_frequency_known',
      sql`${table.payrollFrequency} in ('weekly','fortnightly','four_weekly','monthly')`,
    ),
  ],
);
