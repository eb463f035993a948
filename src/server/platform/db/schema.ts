/**
 * Every table of the service, one file per module under tables/ (docs/decisions/0119-schema-split-by-module.md).
 * Code and tests import tables from here, and drizzle-kit reads this list (drizzle.config.ts).
 */

export { CONTRIBUTION_KINDS } from '../../../contracts/contributions.js';
export { DOCUMENT_TYPES, SCAN_STATUSES } from '../../../contracts/documents.js';
export { IMPORT_KINDS, IMPORT_STATUSES } from '../../../contracts/imports.js';
export { MEMBER_TRANSACTION_KINDS } from '../../../contracts/investments.js';
export { MEMBER_STATUSES } from '../../../contracts/members.js';
// The value lists the tables' CHECK constraints are written from, where code used to find them.
export { SCHEME_TYPES } from '../../../contracts/organisation.js';
export * from './tables/accounts.tables.js';
export * from './tables/ai.tables.js';
export * from './tables/audit.tables.js';
export * from './tables/auth.tables.js';
export * from './tables/auto-enrolment.tables.js';
export * from './tables/contributions.tables.js';
export * from './tables/data-breaches.tables.js';
export * from './tables/data-protection-reminders.tables.js';
export * from './tables/data-request-recipients.tables.js';
export * from './tables/documents.tables.js';
export * from './tables/dora.tables.js';
export * from './tables/email.tables.js';
export * from './tables/funds.tables.js';
export * from './tables/gdpr.tables.js';
export * from './tables/governance.tables.js';
export * from './tables/imports.tables.js';
export * from './tables/investments.tables.js';
export * from './tables/jobs.tables.js';
export * from './tables/lifecycle.tables.js';
export * from './tables/members.tables.js';
export * from './tables/rag.tables.js';
export * from './tables/schemes.tables.js';
export * from './tables/statements.tables.js';
export * from './tables/tenancy.tables.js';
