import { sql } from 'drizzle-orm';
import {
  boolean,
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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { RunIssue, StatementFigures } from '../../../../contracts/statements.js';
import { members } from './members.tables.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * Projection assumption sets (docs/decisions/0141-pension-benefit-statements.md): platform-wide
 * (no broker, the SuperAdmin's) or a firm's own. A set a run has used is never edited (a run that
 * names it is the record of its use); a new version of a name is a new row. Keyed on `id` alone, as a platform-wide set belongs to no
 * tenant; row-level security lets a firm read the platform's and its own, and write only its own.
 */
export const statementAssumptions = pgTable(
  'statement_assumptions',
  {
    id: text('id').primaryKey(),
    brokerId: text('broker_id').references(() => brokers.id),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    source: text('source').notNull(),
    bestEstimateReturnBasisPoints: integer('best_estimate_return_basis_points').notNull(),
    unfavourableReturnBasisPoints: integer('unfavourable_return_basis_points').notNull(),
    inflationBasisPoints: integer('inflation_basis_points').notNull(),
    salaryGrowthBasisPoints: integer('salary_growth_basis_points').notNull(),
    annuityFactorHundredths: integer('annuity_factor_hundredths').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    // A name's versions are numbered once per owner; the platform's are owner ''.
    uniqueIndex('statement_assumptions_version_key').on(
      sql`coalesce(${table.brokerId}, '')`,
      table.name,
      table.version,
    ),
    index('statement_assumptions_recorded_idx').on(table.createdAt, table.id),
    check('statement_assumptions_version_positive', sql`${table.version} >= 1`),
    check(
      'statement_assumptions_annuity_factor',
      sql`${table.annuityFactorHundredths} between 100 and 10000`,
    ),
  ],
);

/**
 * A run that prepares a scheme's statements for one information date
 * (docs/decisions/0141-pension-benefit-statements.md): queued, running, ready for the trustees,
 * approved, issued (or failed). `issues` lists members whose data failed its checks, by id and
 * reason only.
 */
export const statementRuns = pgTable(
  'statement_runs',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    informationDate: date('information_date', { mode: 'string' }).notNull(),
    membersBy: date('members_by', { mode: 'string' }).notNull(),
    assumptionsId: text('assumptions_id')
      .notNull()
      .references(() => statementAssumptions.id),
    status: text('status').notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull(),
    failed: integer('failed').notNull(),
    issues: jsonb('issues').$type<RunIssue[]>().notNull(),
    /** Until then the run is one instance's to work on; after it, another may resume it. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    approvedBy: text('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true, precision: 3 }),
    issuedBy: text('issued_by'),
    issuedAt: timestamp('issued_at', { withTimezone: true, precision: 3 }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'statement_runs_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'statement_runs_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    index('statement_runs_scheme_idx').on(
      table.brokerId,
      table.schemeId,
      table.createdAt,
      table.id,
    ),
    check(
      'statement_runs_status',
      sql`${table.status} in ('queued','running','ready','approved','issued','failed')`,
    ),
    check(
      'statement_runs_counts',
      sql`${table.total} >= 0 and ${table.done} >= 0 and ${table.failed} >= 0 and ${table.done} + ${table.failed} <= ${table.total}`,
    ),
    check('statement_runs_dates', sql`${table.informationDate} < ${table.membersBy}`),
  ],
);

/**
 * One member's statement in a run: its figures, worked once (a member's statement is made once per
 * run, which is what lets an interrupted run resume where it stopped), and, once issued, the
 * member's own document.
 */
export const statements = pgTable(
  'statements',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    runId: text('run_id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    informationDate: date('information_date', { mode: 'string' }).notNull(),
    /** `pending` until made; `made` with its figures and PDF; `failed` with no personal detail. */
    status: text('status').notNull(),
    figures: jsonb('figures').$type<StatementFigures>(),
    /** The PDF's size in bytes once made; its bytes are rendered again from the figures on issue. */
    pdfBytes: integer('pdf_bytes'),
    documentId: text('document_id'),
    paper: boolean('paper').notNull().default(false),
    issuedAt: timestamp('issued_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'statements_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'statements_run_fk',
      columns: [table.brokerId, table.runId],
      foreignColumns: [statementRuns.brokerId, statementRuns.id],
    }),
    foreignKey({
      name: 'statements_member_same_scheme_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    uniqueIndex('statements_once_per_run_key').on(table.brokerId, table.runId, table.memberId),
    index('statements_member_idx').on(table.brokerId, table.memberId, table.informationDate),
    check('statements_status', sql`${table.status} in ('pending','made','failed')`),
    check(
      'statements_made_whole',
      sql`(${table.status} = 'made') = (${table.figures} is not null)`,
    ),
  ],
);
