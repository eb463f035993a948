import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { members } from './members.tables.js';
import { schemes } from './schemes.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * One version of a scheme's document (docs/decisions/0062-document-vault.md).
 * A second upload of the same name under the same scheme and type is the next version; each
 * version is its own row and its own stored file, so earlier versions stay readable. Keyed on
 * (broker_id, id) like the governance tables, broker_id in every key.
 */
export const documents = pgTable(
  'documents',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    documentType: text('document_type').notNull(),
    /** Made safe (documents/filenames.rules.ts): the name it is stored and downloaded under. */
    filename: text('filename').notNull(),
    /** As the uploader's computer named it; may hold personal data, so never audited or logged. */
    originalFilename: text('original_filename').notNull(),
    title: text('title'),
    memberFacing: boolean('member_facing').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    version: integer('version').notNull(),
    scanStatus: text('scan_status').notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true, precision: 3 }),
    /**
     * The member a document is about (a benefit statement), or null for a scheme's document: only
     * that member, of the scheme's members, ever sees it (docs/decisions/0090-member-documents.md).
     */
    memberId: text('member_id'),
    /**
     * Where the bytes are, relative to the storage root: tenant/scheme/document id; rows stored
     * before ids-only keys keep tenant/scheme/type/filename/v<version> (storage.ts, storageKeyOf).
     */
    storageKey: text('storage_key').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'documents_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'documents_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    // The member is of the document's scheme, in the same tenant.
    foreignKey({
      name: 'documents_member_same_scheme_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    // A name's versions are numbered once, deleted ones included: a number is never reused. Each
    // member's documents are a series of their own, so one member's upload never becomes a
    // version of another's (and a version number tells nothing of another member's files).
    unique('documents_version_once_key')
      .on(
        table.brokerId,
        table.schemeId,
        table.documentType,
        table.memberId,
        table.filename,
        table.version,
      )
      .nullsNotDistinct(),
    index('documents_member_idx')
      .on(table.brokerId, table.memberId)
      .where(sql`${table.memberId} is not null`),
    unique('documents_storage_key_once').on(table.brokerId, table.storageKey),
    // The target of the governance registers' links, which name the scheme too.
    unique('documents_scheme_id_key').on(table.brokerId, table.schemeId, table.id),
    index('documents_scheme_idx').on(table.brokerId, table.schemeId, table.createdAt, table.id),
    index('documents_pending_idx')
      .on(table.brokerId, table.id)
      .where(sql`${table.scanStatus} = 'pending' and ${table.deletedAt} is null`),
    check(
      'documents_type_known',
      sql`${table.documentType} in ('scheme_pdf','trust_deed','written_policy','ora_report','kfh_appointment','member_booklet','benefit_statement','other')`,
    ),
    // A benefit statement is one member's: with no member named, it is never member-facing.
    check(
      'documents_member_statement',
      sql`${table.documentType} <> 'benefit_statement' or ${table.memberId} is not null or not ${table.memberFacing}`,
    ),
    check(
      'documents_scan_status_known',
      sql`${table.scanStatus} in ('pending','clean','quarantined','unscanned')`,
    ),
    check('documents_filename_length', sql`char_length(${table.filename}) between 1 and 200`),
    check(
      'documents_original_filename_length',
      sql`char_length(${table.originalFilename}) between 1 and 1024`,
    ),
    check('documents_title_length', sql`char_length(${table.title}) between 1 and 200`),
    check('documents_version_positive', sql`${table.version} >= 1`),
    check('documents_size_bounded', sql`${table.size} between 1 and 26214400`),
    check('documents_sha256_hex', sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
