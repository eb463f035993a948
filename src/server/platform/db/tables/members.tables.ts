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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * A member (docs/decisions/0027-member-and-money-tables.md, docs/decisions/0028-pps-numbers.md).
 * The PPS number is kept only sealed (AES-256-GCM bound to tenant and member) with a keyed hash
 * beside it for finding duplicates; pps_key_id names the key that sealed it, so a key rotation
 * knows which rows are still to do.
 */
export const members = pgTable(
  'members',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    email: text('email'),
    address: text('address'),
    dateJoined: date('date_joined', { mode: 'string' }).notNull(),
    /** The day the scheme's information was given to the member after joining (s.54). */
    informationSentOn: date('information_sent_on', { mode: 'string' }),
    salaryCents: bigint('salary_cents', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('active'),
    /** The day of the latest change of status (docs/decisions/0135-members-lifecycle.md). */
    statusOn: date('status_on', { mode: 'string' }),
    ppsEncrypted: text('pps_encrypted').notNull(),
    ppsLookup: text('pps_lookup').notNull(),
    ppsKeyId: text('pps_key_id').notNull(),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'members_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'members_scheme_same_tenant_fk',
      columns: [table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [schemes.id, schemes.employerId, schemes.brokerId],
    }),
    unique('members_id_broker_id_key').on(table.id, table.brokerId),
    unique('members_id_employer_broker_key').on(table.id, table.employerId, table.brokerId),
    unique('members_id_scheme_employer_broker_key').on(
      table.id,
      table.schemeId,
      table.employerId,
      table.brokerId,
    ),
    // One membership per person and scheme; the same person may be in several schemes.
    uniqueIndex('members_scheme_pps_key')
      .on(table.brokerId, table.schemeId, table.ppsLookup)
      .where(sql`${table.deletedAt} is null`),
    index('members_broker_pps_idx').on(table.brokerId, table.ppsLookup),
    index('members_scheme_created_idx').on(table.schemeId, table.createdAt, table.id),
    index('members_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    index('members_pps_key_idx').on(table.ppsKeyId),
    // A scheme's live members by status and joining day, with the day of their latest change of
    // status (for an active member, a rejoining) and the day their information was sent: the
    // compliance assessment counts the active and deferred and reads the new joiners and
    // rejoiners from this index alone (governance.data.ts, loadGovernance).
    index('members_scheme_status_idx')
      .on(
        table.brokerId,
        table.schemeId,
        table.status,
        table.dateJoined,
        table.statusOn,
        table.informationSentOn,
      )
      .where(sql`${table.deletedAt} is null`),
    check(
      'members_status_known',
      sql`${table.status} in ('active','deferred','retired','transferred_out','refunded','deceased')`,
    ),
    check('members_salary_not_negative', sql`${table.salaryCents} >= 0`),
    check('members_pps_lookup_shape', sql`${table.ppsLookup} ~ '^[0-9a-f]{64}$'`),
    check(
      'members_names_present',
      sql`char_length(${table.firstName}) between 1 and 100 and char_length(${table.lastName}) between 1 and 100`,
    ),
  ],
);

/**
 * Each reveal of a member's PPS number with why (docs/decisions/0145-a-reason-for-a-pps-reveal.md):
 * the reason's code, which the audit record keeps too, and the note, which it never does, since a
 * note may name people. Written once, with the reveal's audit record, and never changed.
 */
export const ppsReveals = pgTable(
  'pps_reveals',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    memberId: text('member_id').notNull(),
    revealedBy: text('revealed_by').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    revealedAt: timestamp('revealed_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'pps_reveals_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'pps_reveals_member_same_tenant_fk',
      columns: [table.memberId, table.brokerId],
      foreignColumns: [members.id, members.brokerId],
    }),
    index('pps_reveals_member_idx').on(table.brokerId, table.memberId, table.revealedAt),
    check(
      'pps_reveals_reason_known',
      sql`${table.reason} in ('revenue','transfer','benefit_payment','identity_check','records_correction','member_request','other')`,
    ),
    check(
      'pps_reveals_note_whole',
      sql`(${table.note} is null or char_length(${table.note}) between 1 and 300) and (${table.reason} <> 'other' or ${table.note} is not null)`,
    ),
  ],
);
