import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * One CSV upload: who, which file (its SHA-256), how far it got and what was wrong with it. The
 * issues name lines, columns and reasons, never the values.
 */
export const imports = pgTable(
  'imports',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('running'),
    fileSha256: text('file_sha256'),
    /** The name of the uploaded file as the uploader's computer called it, for reconciling. */
    fileName: text('file_name'),
    fileBytes: bigint('file_bytes', { mode: 'number' }).notNull().default(0),
    rowsRead: bigint('rows_read', { mode: 'number' }).notNull().default(0),
    rowsWritten: bigint('rows_written', { mode: 'number' }).notNull().default(0),
    issueCount: bigint('issue_count', { mode: 'number' }).notNull().default(0),
    issues: jsonb('issues'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'imports_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'imports_scheme_same_tenant_fk',
      columns: [table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [schemes.id, schemes.employerId, schemes.brokerId],
    }),
    index('imports_scheme_created_idx').on(table.schemeId, table.createdAt, table.id),
    // The same file is written to a scheme once; a second upload of it is refused.
    uniqueIndex('imports_same_file_once_key')
      .on(table.brokerId, table.schemeId, table.kind, table.fileSha256)
      .where(sql`${table.status} = 'succeeded'`),
    check('imports_kind_known', sql`${table.kind} in ('members','contributions')`),
    check(
      'imports_status_known',
      sql`${table.status} in ('running','succeeded','rejected','failed')`,
    ),
  ],
);
