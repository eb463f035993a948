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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { members } from './members.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * The data-subject requests register (docs/decisions/0137-data-subject-requests.md): what a
 * member asked the firm for under the GDPR, when, the day the answer is due, and how it was
 * answered. `due_on` is the day the answer is due now: `original_due_on` until the request is
 * extended, two months after it once it is. The kinds, statuses and citations are those of
 * src/contracts/data-request-rules.ts.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    memberId: text('member_id').notNull(),
    kind: text('kind').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    originalDueOn: date('original_due_on', { mode: 'string' }).notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('open'),
    /** What the person was told when the request was extended. */
    extensionReason: text('extension_reason'),
    /** The day it was completed or refused, in Ireland. */
    closedOn: date('closed_on', { mode: 'string' }),
    completionNote: text('completion_note'),
    refusalReason: text('refusal_reason'),
    refusalCitation: text('refusal_citation'),
    /**
     * A completed rectification's corrected details, by name from contracts/rectification-rules.ts
     * (docs/decisions/0148-rectification-and-recipients.md); null for every other request.
     */
    correctedFields: text('corrected_fields').array(),
    createdBy: text('created_by').notNull(),
    ...timestamps,
  },
  (table) => [
    primaryKey({ name: 'data_requests_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'data_requests_member_same_tenant_fk',
      columns: [table.memberId, table.brokerId],
      foreignColumns: [members.id, members.brokerId],
    }),
    index('data_requests_due_idx').on(table.brokerId, table.dueOn, table.id),
    index('data_requests_member_idx').on(table.brokerId, table.memberId),
    check(
      'data_requests_kind_known',
      sql`${table.kind} in ('access','rectification','erasure','restriction','objection')`,
    ),
    check(
      'data_requests_status_known',
      sql`${table.status} in ('open','extended','completed','refused')`,
    ),
    check(
      'data_requests_days_in_order',
      sql`${table.originalDueOn} > ${table.receivedOn} and ${table.dueOn} >= ${table.originalDueOn}`,
    ),
    check(
      'data_requests_extended_whole',
      sql`(${table.dueOn} = ${table.originalDueOn}) = (${table.extensionReason} is null) and (${table.status} <> 'open' or ${table.extensionReason} is null) and (${table.status} <> 'extended' or ${table.extensionReason} is not null)`,
    ),
    check(
      'data_requests_closed_whole',
      sql`(${table.status} in ('completed', 'refused')) = (${table.closedOn} is not null)`,
    ),
    check(
      'data_requests_refusal_whole',
      sql`(${table.status} = 'refused') = (${table.refusalCitation} is not null) and (${table.refusalCitation} is null) = (${table.refusalReason} is null) and (${table.refusalCitation} is null or ${table.refusalCitation} in ('GDPR Art. 17(3)(b)','GDPR Art. 17(3)(e)','GDPR Art. 12(5)'))`,
    ),
    check(
      'data_requests_corrected_fields_whole',
      sql`${table.correctedFields} is null or (${table.kind} = 'rectification' and ${table.status} = 'completed' and cardinality(${table.correctedFields}) between 1 and 10 and ${table.correctedFields} <@ array['name','date_of_birth','address','email','phone','salary','pps_number','date_joined','dependants','beneficiaries']::text[])`,
    ),
    check(
      'data_requests_text_lengths',
      sql`(${table.extensionReason} is null or char_length(${table.extensionReason}) between 1 and 1000) and (${table.completionNote} is null or char_length(${table.completionNote}) between 1 and 1000) and (${table.refusalReason} is null or char_length(${table.refusalReason}) between 1 and 1000)`,
    ),
  ],
);

/**
 * What was erased, by id (docs/decisions/0149-retention-and-erasure.md): a member's whole record
 * once the retention schedule no longer requires it, or their contact details once every benefit
 * is paid. No personal data: the member's id, the scope, what started it and when. The same entry
 * is appended, before the erasure commits, to the erasure ledger outside the database
 * (ERASURE_LEDGER_FILE), which a restore and every start-up re-apply; a row here is how they know
 * an entry is already applied. There is no foreign key to the member: the member is gone.
 */
export const erasures = pgTable(
  'erasures',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    memberId: text('member_id').notNull(),
    scope: text('scope').notNull(),
    trigger: text('trigger').notNull(),
    /** The erasure request it answered, when a person asked. */
    requestId: text('request_id'),
    documentCount: integer('document_count').notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true, precision: 3 }).notNull(),
    /** Set when a restore or a start-up applied the entry again to a database that lacked it. */
    reappliedAt: timestamp('reapplied_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'erasures_pkey', columns: [table.brokerId, table.id] }),
    index('erasures_member_idx').on(table.brokerId, table.memberId),
    check('erasures_scope_known', sql`${table.scope} in ('member', 'contact_details')`),
    check('erasures_trigger_known', sql`${table.trigger} in ('request', 'retention_ended')`),
    check(
      'erasures_request_for_requests',
      sql`(${table.trigger} = 'request') = (${table.requestId} is not null)`,
    ),
  ],
);

/**
 * A member's data restricted while its accuracy is disputed, or an objection is weighed (GDPR
 * Art. 18(1)): kept, shown with the restriction, and never erased by the retention job until the
 * restriction is lifted. One restriction in force per member; lifted ones are kept.
 */
export const memberRestrictions = pgTable(
  'member_restrictions',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    memberId: text('member_id').notNull(),
    reason: text('reason').notNull(),
    restrictedOn: date('restricted_on', { mode: 'string' }).notNull(),
    liftedOn: date('lifted_on', { mode: 'string' }),
    createdBy: text('created_by').notNull(),
    liftedBy: text('lifted_by'),
    ...timestamps,
  },
  (table) => [
    primaryKey({ name: 'member_restrictions_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'member_restrictions_member_fk',
      columns: [table.memberId, table.brokerId],
      foreignColumns: [members.id, members.brokerId],
    }),
    uniqueIndex('member_restrictions_in_force_key')
      .on(table.brokerId, table.memberId)
      .where(sql`${table.liftedOn} is null`),
    check(
      'member_restrictions_reason_length',
      sql`char_length(${table.reason}) between 1 and 1000`,
    ),
    check(
      'member_restrictions_lifted_whole',
      sql`(${table.liftedOn} is null) = (${table.liftedBy} is null)`,
    ),
  ],
);
