import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';
import { documents } from './documents.tables.js';
import { writtenPolicies } from './governance.tables.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * AI (docs/decisions/0066-ai-provider-guard-and-chat.md). A firm's own provider key
 * and limits: one row per tenant at most, so it keys on broker_id alone, as the tenant's own
 * extension of its brokers row. The key is sealed (AES-256-GCM, fresh IV, the tenant id as
 * associated data: crypto/sealed-box.ts) and never read back out of the service.
 */
export const aiSettings = pgTable(
  'ai_settings',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    apiKeySealed: text('api_key_sealed'),
    monthlyRequestLimit: integer('monthly_request_limit'),
    monthlyTokenLimit: bigint('monthly_token_limit', { mode: 'number' }),
    /**
     * Whether an AI draft needs a second and third person (reviewer, approver) besides its authors;
     * null: the platform's default, on outside development (docs/decisions/0083-ai-drafts-four-eyes.md).
     */
    fourEyes: boolean('four_eyes'),
    updatedBy: text('updated_by').notNull(),
    ...timestamps,
  },
  (table) => [
    primaryKey({ name: 'ai_settings_pkey', columns: [table.brokerId] }),
    check(
      'ai_settings_limits_not_negative',
      sql`coalesce(${table.monthlyRequestLimit}, 0) >= 0 and coalesce(${table.monthlyTokenLimit}, 0) >= 0`,
    ),
  ],
);

/**
 * What a tenant used of the provider in a calendar month (Europe/Dublin): one counter row per
 * tenant and month, keyed by the two. A request is counted before it is sent, so concurrent
 * requests cannot together pass the limit; tokens are added when the answer is in.
 */
export const aiUsage = pgTable(
  'ai_usage',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    /** YYYY-MM. */
    month: text('month').notNull(),
    requests: integer('requests').notNull().default(0),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    ...timestamps,
  },
  (table) => [
    primaryKey({ name: 'ai_usage_pkey', columns: [table.brokerId, table.month] }),
    check('ai_usage_month_shape', sql`${table.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * Drafts of governance writing, kept apart from approved content: a draft's text is never a
 * policy's until it has been reviewed, approved and issued. The generated text is kept beside
 * the edited one, so the approval can record what people changed.
 */
export const aiDrafts = pgTable(
  'ai_drafts',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    kind: text('kind').notNull(),
    policyKind: text('policy_kind'),
    status: text('status').notNull(),
    /** `ai` when a provider wrote it, `template` when the project's own template did. */
    generatedBy: text('generated_by').notNull(),
    generatedContent: text('generated_content').notNull(),
    content: text('content').notNull(),
    createdBy: text('created_by').notNull(),
    /** Everyone who changed the text after it was generated: its authors, with createdBy. */
    editedBy: text('edited_by').array().notNull().default(sql`'{}'::text[]`),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, precision: 3 }),
    approvedBy: text('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true, precision: 3 }),
    /** The approved text against the generated one, recorded at approval (contracts/line-diff.ts). */
    approvedDiff: jsonb('approved_diff'),
    issuedBy: text('issued_by'),
    issuedAt: timestamp('issued_at', { withTimezone: true, precision: 3 }),
    /** The draft written policy the issued text went to, for a written_policy draft. */
    issuedPolicyId: text('issued_policy_id'),
    /** The PDF of the approved text, stored as a document of the scheme when it was issued. */
    issuedDocumentId: text('issued_document_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'ai_drafts_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'ai_drafts_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    foreignKey({
      name: 'ai_drafts_issued_policy_same_tenant_fk',
      columns: [table.brokerId, table.issuedPolicyId],
      foreignColumns: [writtenPolicies.brokerId, writtenPolicies.id],
    }),
    foreignKey({
      name: 'ai_drafts_issued_document_same_tenant_fk',
      columns: [table.brokerId, table.issuedDocumentId],
      foreignColumns: [documents.brokerId, documents.id],
    }),
    index('ai_drafts_scheme_idx').on(table.brokerId, table.schemeId, table.createdAt, table.id),
    check(
      'ai_drafts_kind_known',
      sql`${table.kind} in ('written_policy','ora_outline','kfh_appointment_letter')`,
    ),
    check(
      'ai_drafts_policy_kind_with_written_policy',
      sql`(${table.kind} = 'written_policy') = (${table.policyKind} is not null)`,
    ),
    check(
      'ai_drafts_status_known',
      sql`${table.status} in ('draft','reviewed','approved','issued')`,
    ),
    check('ai_drafts_generated_by_known', sql`${table.generatedBy} in ('ai','template')`),
    check('ai_drafts_content_length', sql`char_length(${table.content}) between 1 and 100000`),
    check(
      'ai_drafts_approved_recorded',
      sql`(${table.status} in ('approved','issued')) = (${table.approvedAt} is not null)`,
    ),
  ],
);
