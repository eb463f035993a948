import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns.js';
import { brokers, employers } from './tenancy.tables.js';

/*
 * Auto-enrolment readiness (docs/decisions/0068-auto-enrolment-readiness.md).
 * An employer's payroll uploads, the employees they name (one row per person and employer, found
 * by the PPS lookup hash, whether or not they are members) and the pay lines. Keyed on
 * (broker_id, id) with broker_id in every key, like the governance tables. An upload is deleted
 * outright with its lines, and so is every employee no other upload still names: the PPS numbers
 * of people who are not members are kept no longer than the payroll that brought them.
 */

export const payrollUploads = pgTable(
  'payroll_uploads',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    status: text('status').notNull(),
    fileSha256: text('file_sha256'),
    fileName: text('file_name'),
    fileBytes: bigint('file_bytes', { mode: 'number' }).notNull().default(0),
    rowsRead: bigint('rows_read', { mode: 'number' }).notNull().default(0),
    rowsWritten: bigint('rows_written', { mode: 'number' }).notNull().default(0),
    employeesWritten: bigint('employees_written', { mode: 'number' }).notNull().default(0),
    issueCount: bigint('issue_count', { mode: 'number' }).notNull().default(0),
    issues: jsonb('issues'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'payroll_uploads_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'payroll_uploads_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    index('payroll_uploads_employer_idx').on(table.brokerId, table.employerId, table.createdAt),
    uniqueIndex('payroll_uploads_same_file_once_key')
      .on(table.brokerId, table.employerId, table.fileSha256)
      .where(sql`${table.status} = 'succeeded'`),
    check(
      'payroll_uploads_status_known',
      sql`${table.status} in ('running','succeeded','rejected','failed')`,
    ),
  ],
);

export const payrollEmployees = pgTable(
  'payroll_employees',
  {
    /** Its tenant through the employer's key, whose row references brokers (migration 0029). */
    brokerId: text('broker_id').notNull(),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    /** Sealed and looked up as a member's (docs/decisions/0028-pps-numbers.md; pps-keyring.ts). */
    ppsEncrypted: text('pps_encrypted').notNull(),
    ppsLookup: text('pps_lookup').notNull(),
    ppsKeyId: text('pps_key_id').notNull(),
    /** As the employer gave them, when it did; a report shows only what the employer gave. */
    firstName: text('first_name'),
    lastName: text('last_name'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'payroll_employees_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'payroll_employees_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    unique('payroll_employees_person_key').on(table.brokerId, table.employerId, table.ppsLookup),
    check('payroll_employees_pps_lookup_shape', sql`${table.ppsLookup} ~ '^[0-9a-f]{64}$'`),
    check(
      'payroll_employees_names_length',
      sql`char_length(${table.firstName}) between 1 and 100 and char_length(${table.lastName}) between 1 and 100`,
    ),
  ],
);

/**
 * One upload's pay lines, one row an upload: every line as a fixed-size record in one value
 * (`pay-lines.rules.ts` has the format), the people it names by their place in `employee_ids`, the
 * schemes by their place in `scheme_ids`. A year of weekly payroll for 10,000 people is four rows
 * rather than 520,000 or 40,000: an upload is written once, read by window and deleted whole, and a
 * row a line or a person paid the keys, indexes and row-level security that many times (docs/decisions/0075-pay-lines-one-row-per-upload.md).
 * `first_period_start` and
 * `last_period_end` bound its periods, so an assessment reads only the uploads meeting its window.
 * The database holds the row's shape; the lines inside the value are checked where they are
 * written and again where they are read.
 */
export const payrollUploadLines = pgTable(
  'payroll_upload_lines',
  {
    brokerId: text('broker_id').notNull(),
    uploadId: text('upload_id').notNull(),
    employerId: text('employer_id').notNull(),
    format: integer('format').notNull(),
    lineCount: integer('line_count').notNull(),
    /** Distinct pay periods (start and end) among the lines: what the uploads list shows. */
    payPeriods: integer('pay_periods').notNull(),
    firstPeriodStart: date('first_period_start', { mode: 'string' }).notNull(),
    lastPeriodEnd: date('last_period_end', { mode: 'string' }).notNull(),
    /**
     * No foreign key can reach into an array: the upload writes every person it names in the same
     * transaction, and erasure deletes a person only when no row names them any more.
     */
    employeeIds: text('employee_ids').array().notNull(),
    /** The employer's live schemes when the file was read (payroll-rows.rules.ts checked each line's). */
    schemeIds: text('scheme_ids').array().notNull(),
    lines: bytea('lines').notNull(),
  },
  (table) => [
    primaryKey({ name: 'payroll_upload_lines_pkey', columns: [table.brokerId, table.uploadId] }),
    foreignKey({
      name: 'payroll_upload_lines_upload_fk',
      columns: [table.brokerId, table.uploadId],
      foreignColumns: [payrollUploads.brokerId, payrollUploads.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'payroll_upload_lines_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    index('payroll_upload_lines_employer_window_idx').on(
      table.brokerId,
      table.employerId,
      table.lastPeriodEnd,
    ),
    check(
      'payroll_upload_lines_shape',
      sql`${table.format} in (1, 2) and ${table.lineCount} > 0 and (${table.format} <> 1 or octet_length(${table.lines}) = 44 * ${table.lineCount}) and ${table.firstPeriodStart} <= ${table.lastPeriodEnd} and cardinality(${table.employeeIds}) between 1 and ${table.lineCount} and ${table.payPeriods} between 1 and ${table.lineCount}`,
    ),
  ],
);
