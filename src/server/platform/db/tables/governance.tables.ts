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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.tables.js';
import { documents } from './documents.tables.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/*
 * Governance under IORP II (docs/decisions/0059-governance-rules.md; rules:
 * contracts/governance-rules.ts). Every table keys on (broker_id, id), and every foreign key and
 * unique constraint carries broker_id, so the schema can be distributed by tenant
 * (docs/deployment.md). Rows are soft-deleted: the registers are what a supervisory review asks to
 * see, ended and superseded entries included.
 */

/** The columns every governance register shares: tenant, scheme, who and when. */
const governanceColumns = () => ({
  brokerId: text('broker_id')
    .notNull()
    .references(() => brokers.id),
  id: text('id').notNull(),
  employerId: text('employer_id').notNull(),
  schemeId: text('scheme_id').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
});

export const trustees = pgTable(
  'trustees',
  {
    ...governanceColumns(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    directorCount: integer('director_count'),
    appointedOn: date('appointed_on', { mode: 'string' }).notNull(),
    endedOn: date('ended_on', { mode: 'string' }),
    /** Art. 22 asks it of those who effectively run the scheme, the trustees too. */
    fitnessAndProbity: text('fitness_and_probity').notNull().default('pending'),
    /** Contact details: personal data, never in an audit state or a log. */
    email: text('email'),
    phone: text('phone'),
    /** Named chair of the board; chairs it while serving (contracts/governance-rules.ts). */
    chair: boolean('chair').notNull().default(false),
  },
  (table) => [
    primaryKey({ name: 'trustees_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'trustees_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    index('trustees_scheme_idx').on(table.brokerId, table.schemeId, table.createdAt, table.id),
    // A trustee's training names the trustee and its scheme, and this makes them agree.
    unique('trustees_id_scheme_key').on(table.brokerId, table.id, table.schemeId),
    check('trustees_kind_known', sql`${table.kind} in ('individual','corporate')`),
    check(
      'trustees_fitness_known',
      sql`${table.fitnessAndProbity} in ('pending','confirmed','failed')`,
    ),
    check(
      'trustees_directors_of_corporate',
      sql`${table.directorCount} is null or (${table.kind} = 'corporate' and ${table.directorCount} >= 0)`,
    ),
    check('trustees_name_length', sql`char_length(${table.name}) between 1 and 200`),
    check(
      'trustees_email_length',
      sql`${table.email} is null or char_length(${table.email}) between 3 and 320`,
    ),
    check(
      'trustees_phone_length',
      sql`${table.phone} is null or char_length(${table.phone}) between 1 and 30`,
    ),
    // One chair of a scheme's board at a time: naming another moves it (governance-rules.ts).
    uniqueIndex('trustees_one_chair_key')
      .on(table.brokerId, table.schemeId)
      .where(sql`${table.chair} and ${table.deletedAt} is null`),
    check(
      'trustees_end_after_start',
      sql`${table.endedOn} is null or ${table.endedOn} >= ${table.appointedOn}`,
    ),
  ],
);

export const keyFunctionHolders = pgTable(
  'key_function_holders',
  {
    ...governanceColumns(),
    function: text('function').notNull(),
    holderName: text('holder_name').notNull(),
    holderEmail: text('holder_email'),
    appointedOn: date('appointed_on', { mode: 'string' }).notNull(),
    endedOn: date('ended_on', { mode: 'string' }),
    fitnessAndProbity: text('fitness_and_probity').notNull(),
    alsoServesEmployer: boolean('also_serves_employer').notNull(),
    conflictsProtocol: text('conflicts_protocol'),
    /** The day the appointment was notified to the Pensions Authority (Art. 22). */
    notifiedOn: date('notified_on', { mode: 'string' }),
    /** The document that records it (docs/decisions/0064-document-links-and-documents-tab.md). */
    documentId: text('document_id'),
  },
  (table) => [
    primaryKey({ name: 'key_function_holders_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'key_function_holders_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    // A linked document is one of the same scheme's: the key carries the scheme.
    foreignKey({
      name: 'key_function_holders_document_same_scheme_fk',
      columns: [table.brokerId, table.schemeId, table.documentId],
      foreignColumns: [documents.brokerId, documents.schemeId, documents.id],
    }),
    index('key_function_holders_scheme_idx').on(
      table.brokerId,
      table.schemeId,
      table.createdAt,
      table.id,
    ),
    // There is no "compliance" key function (Directive (EU) 2016/2341 Art. 24;
    // docs/decisions/0059-governance-rules.md).
    check(
      'key_function_holders_function_known',
      sql`${table.function} in ('risk_management','internal_audit','actuarial')`,
    ),
    check(
      'key_function_holders_fitness_known',
      sql`${table.fitnessAndProbity} in ('pending','confirmed','failed')`,
    ),
    check(
      'key_function_holders_name_length',
      sql`char_length(${table.holderName}) between 1 and 200`,
    ),
    check(
      'key_function_holders_end_after_start',
      sql`${table.endedOn} is null or ${table.endedOn} >= ${table.appointedOn}`,
    ),
  ],
);

export const writtenPolicies = pgTable(
  'written_policies',
  {
    ...governanceColumns(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    version: text('version').notNull(),
    status: text('status').notNull(),
    approvedOn: date('approved_on', { mode: 'string' }),
    approvedBy: text('approved_by'),
    /**
     * The meeting or minute of the trustees' decision, asked for with every approval; none on a
     * draft (docs/decisions/0133-governance-registers-completed.md).
     */
    approvalReference: text('approval_reference'),
    /** The review cycle's due date (from when the last review was due); significant changes aside. */
    nextReviewDue: date('next_review_due', { mode: 'string' }),
    /** The document that records it (docs/decisions/0064-document-links-and-documents-tab.md). */
    documentId: text('document_id'),
  },
  (table) => [
    primaryKey({ name: 'written_policies_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'written_policies_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    // A linked document is one of the same scheme's: the key carries the scheme.
    foreignKey({
      name: 'written_policies_document_same_scheme_fk',
      columns: [table.brokerId, table.schemeId, table.documentId],
      foreignColumns: [documents.brokerId, documents.schemeId, documents.id],
    }),
    index('written_policies_scheme_idx').on(
      table.brokerId,
      table.schemeId,
      table.createdAt,
      table.id,
    ),
    // One version of each kind is in use at a time.
    uniqueIndex('written_policies_one_approved_key')
      .on(table.brokerId, table.schemeId, table.kind)
      .where(sql`${table.status} = 'approved' and ${table.deletedAt} is null`),
    check(
      'written_policies_kind_known',
      sql`${table.kind} in ('risk_management','internal_audit','remuneration','actuarial','outsourcing','investment_principles')`,
    ),
    check(
      'written_policies_status_known',
      sql`${table.status} in ('draft','approved','superseded')`,
    ),
    check(
      'written_policies_approved_dated',
      sql`(${table.status} = 'draft') = (${table.approvedOn} is null) and (${table.approvedOn} is null) = (${table.nextReviewDue} is null)`,
    ),
    check('written_policies_title_length', sql`char_length(${table.title}) between 1 and 200`),
    check(
      'written_policies_approval_reference',
      sql`${table.approvalReference} is null or (${table.status} <> 'draft' and char_length(${table.approvalReference}) between 1 and 200)`,
    ),
    check('written_policies_version_length', sql`char_length(${table.version}) between 1 and 40`),
  ],
);

export const oraReports = pgTable(
  'ora_reports',
  {
    ...governanceColumns(),
    performedOn: date('performed_on', { mode: 'string' }).notNull(),
    trigger: text('trigger').notNull(),
    summary: text('summary'),
    nextDue: date('next_due', { mode: 'string' }).notNull(),
    /** The document that records it (docs/decisions/0064-document-links-and-documents-tab.md). */
    documentId: text('document_id'),
  },
  (table) => [
    primaryKey({ name: 'ora_reports_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'ora_reports_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    // A linked document is one of the same scheme's: the key carries the scheme.
    foreignKey({
      name: 'ora_reports_document_same_scheme_fk',
      columns: [table.brokerId, table.schemeId, table.documentId],
      foreignColumns: [documents.brokerId, documents.schemeId, documents.id],
    }),
    index('ora_reports_scheme_idx').on(table.brokerId, table.schemeId, table.performedOn),
    check('ora_reports_trigger_known', sql`${table.trigger} in ('scheduled','significant_change')`),
    check('ora_reports_next_due_after', sql`${table.nextDue} > ${table.performedOn}`),
  ],
);

/**
 * A recorded significant change: to the area of a written policy (the policy is to be adapted),
 * or, with no policy, to the scheme's risk profile (an ORA is due without delay); when this
 * service shows each as due is in contracts/governance-rules.ts.
 */
export const significantChanges = pgTable(
  'significant_changes',
  {
    ...governanceColumns(),
    policyId: text('policy_id'),
    occurredOn: date('occurred_on', { mode: 'string' }).notNull(),
    description: text('description').notNull(),
  },
  (table) => [
    primaryKey({ name: 'significant_changes_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'significant_changes_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    foreignKey({
      name: 'significant_changes_policy_same_tenant_fk',
      columns: [table.brokerId, table.policyId],
      foreignColumns: [writtenPolicies.brokerId, writtenPolicies.id],
    }),
    index('significant_changes_scheme_idx').on(table.brokerId, table.schemeId, table.occurredOn),
    check(
      'significant_changes_description_length',
      sql`char_length(${table.description}) between 1 and 2000`,
    ),
  ],
);

/**
 * Each compliance reminder sent: one row per obligation, due date, stage and recipient, so a
 * reminder goes out at most once however often, or on however many instances, the job runs.
 */
export const complianceReminders = pgTable(
  'compliance_reminders',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    schemeId: text('scheme_id').notNull(),
    /** `<scheme>:<obligation kind>:<subject>`: which obligation, without saying anything personal. */
    obligationKey: text('obligation_key').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    stage: text('stage').notNull(),
    userId: text('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'compliance_reminders_pkey', columns: [table.brokerId, table.id] }),
    unique('compliance_reminders_once_key').on(
      table.brokerId,
      table.obligationKey,
      table.dueOn,
      table.stage,
      table.userId,
    ),
    foreignKey({
      name: 'compliance_reminders_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
    foreignKey({
      name: 'compliance_reminders_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId],
      foreignColumns: [schemes.brokerId, schemes.id],
    }),
  ],
);

/**
 * Trustee training (Pensions Act 1990 s.59AA; docs/decisions/0122-the-scheme-year.md; rules:
 * contracts/scheme-year-rules.ts): each session a trustee, or one director of a corporate trustee,
 * completed. Kept as a record of what happened: an entry is corrected by recording the right one,
 * never edited.
 */
export const trusteeTrainings = pgTable(
  'trustee_trainings',
  {
    ...governanceColumns(),
    trusteeId: text('trustee_id').notNull(),
    completedOn: date('completed_on', { mode: 'string' }).notNull(),
    topic: text('topic'),
    /** For a corporate trustee: the director who was trained (each director is, s.59AA). */
    directorName: text('director_name'),
  },
  (table) => [
    primaryKey({ name: 'trustee_trainings_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'trustee_trainings_trustee_same_scheme_fk',
      columns: [table.brokerId, table.trusteeId, table.schemeId],
      foreignColumns: [trustees.brokerId, trustees.id, trustees.schemeId],
    }),
    foreignKey({
      name: 'trustee_trainings_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    index('trustee_trainings_trustee_idx').on(
      table.brokerId,
      table.trusteeId,
      table.createdAt,
      table.id,
    ),
    index('trustee_trainings_scheme_idx').on(table.brokerId, table.schemeId),
    check(
      'trustee_trainings_topic_length',
      sql`${table.topic} is null or char_length(${table.topic}) between 1 and 200`,
    ),
    check(
      'trustee_trainings_director_length',
      sql`${table.directorName} is null or char_length(${table.directorName}) between 1 and 200`,
    ),
  ],
);

/**
 * The scheme year's filings (docs/decisions/0122-the-scheme-year.md): the annual report, the annual
 * scheme information return and the Annual Compliance Statement, one of each kind for each period.
 */
export const filings = pgTable(
  'filings',
  {
    ...governanceColumns(),
    kind: text('kind').notNull(),
    /** The last day of the period it covers: the scheme year's end, or 31 December. */
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    completedOn: date('completed_on', { mode: 'string' }),
    /** Whether the annual report was audited (required above 100 members, s.55). */
    audited: boolean('audited'),
  },
  (table) => [
    primaryKey({ name: 'filings_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'filings_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    index('filings_scheme_idx').on(table.brokerId, table.schemeId, table.createdAt, table.id),
    uniqueIndex('filings_one_per_period_key')
      .on(table.brokerId, table.schemeId, table.kind, table.periodEnd)
      .where(sql`${table.deletedAt} is null`),
    check(
      'filings_kind_known',
      sql`${table.kind} in ('annual_report','annual_scheme_information','annual_compliance_statement')`,
    ),
    check(
      'filings_audited_of_annual_report',
      sql`${table.audited} is null or ${table.kind} = 'annual_report'`,
    ),
  ],
);

/**
 * The scheme's register of conflicts of interest (guidance: the Pensions Authority's Code of
 * Practice for trustees asks trustees to identify, record and manage them): who has the interest,
 * what it is, when it was declared, how it is managed, and when it ended. An entry is never
 * deleted: a closed one stays in the register with the day it was closed.
 */
export const conflictsOfInterest = pgTable(
  'conflicts_of_interest',
  {
    ...governanceColumns(),
    /** Who has the interest: a trustee, a key function holder, an adviser. */
    personName: text('person_name').notNull(),
    /** Where the person is a trustee of the scheme: that trustee. */
    trusteeId: text('trustee_id'),
    interest: text('interest').notNull(),
    declaredOn: date('declared_on', { mode: 'string' }).notNull(),
    management: text('management'),
    closedOn: date('closed_on', { mode: 'string' }),
  },
  (table) => [
    primaryKey({ name: 'conflicts_of_interest_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'conflicts_of_interest_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    // A trustee named is one of the same scheme's: the key carries the scheme.
    foreignKey({
      name: 'conflicts_of_interest_trustee_same_scheme_fk',
      columns: [table.brokerId, table.trusteeId, table.schemeId],
      foreignColumns: [trustees.brokerId, trustees.id, trustees.schemeId],
    }),
    index('conflicts_of_interest_scheme_idx').on(
      table.brokerId,
      table.schemeId,
      table.createdAt,
      table.id,
    ),
    check(
      'conflicts_of_interest_person_length',
      sql`char_length(${table.personName}) between 1 and 200`,
    ),
    check(
      'conflicts_of_interest_interest_length',
      sql`char_length(${table.interest}) between 1 and 2000`,
    ),
    check(
      'conflicts_of_interest_management_length',
      sql`${table.management} is null or char_length(${table.management}) between 1 and 2000`,
    ),
    check(
      'conflicts_of_interest_closed_after_declared',
      sql`${table.closedOn} is null or ${table.closedOn} >= ${table.declaredOn}`,
    ),
  ],
);
