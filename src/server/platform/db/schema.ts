import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
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

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/** A broker firm: the tenant. Its id is the tenant id every other tenant row carries as broker_id. */
export const brokers = pgTable('brokers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
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
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'employers_pkey', columns: [table.brokerId, table.id] }),
    // Children reference (id, broker_id) so their broker_id can never differ from their employer's.
    unique('employers_id_broker_id_key').on(table.id, table.brokerId),
    index('employers_broker_id_idx').on(table.brokerId),
    index('employers_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
  ],
);

/**
 * service-spec §2.8, append-only. tenant_id is the tenant the record belongs to (whose chain it
 * extends, and who may read it); actor_tenant_id is the actor's own tenant, null for SuperAdmin.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').notNull(),
    tenantId: text('tenant_id').references(() => brokers.id),
    chainKey: text('chain_key').notNull(),
    chainIndex: bigint('chain_index', { mode: 'number' }).notNull(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
    /**
     * 1: plain SHA-256 (records from before the keyed chain); 2: HMAC-SHA256 under
     * AUDIT_CHAIN_KEY; 3: the same HMAC, covering client_address too. No default, so code that
     * does not seal its records cannot add any.
     */
    hashVersion: integer('hash_version').notNull(),
    /** Fingerprint of the key a version-2 or -3 record is sealed with; null for version 1. */
    keyId: text('key_id'),
    actorId: text('actor_id').notNull(),
    actorType: text('actor_type').notNull(),
    actorTenantId: text('actor_tenant_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    previousState: jsonb('previous_state'),
    newState: jsonb('new_state'),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true, precision: 3 }).notNull(),
    /**
     * The client address the server trusted (request.ip, which honours TRUST_PROXY), beside the
     * x-forwarded-for header in ip_address. Null only on records from before it was kept.
     */
    clientAddress: text('client_address'),
  },
  (table) => [
    // Led by the chain (the tenant, or '@platform'): the key it would be distributed on by tenant
    // (docs/deployment.md, "Scaling past one database").
    primaryKey({ name: 'audit_log_pkey', columns: [table.chainKey, table.id] }),
    unique('audit_log_chain_position_key').on(table.chainKey, table.chainIndex),
    index('audit_log_tenant_time_idx').on(table.tenantId, table.timestamp),
    index('audit_log_entity_idx').on(table.entityType, table.entityId),
    check(
      'audit_log_action_dotted',
      sql`${table.action} ~ '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$'`,
    ),
    check(
      'audit_log_actor_type_role',
      sql`${table.actorType} in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member','Anonymous')`,
    ),
    check(
      'audit_log_chain_key_matches_tenant',
      sql`${table.chainKey} = coalesce(${table.tenantId}, '@platform')`,
    ),
    foreignKey({ columns: [table.actorTenantId], foreignColumns: [brokers.id] }),
    check(
      'audit_log_hash_version_key',
      sql`(${table.hashVersion} = 1 and ${table.keyId} is null) or (${table.hashVersion} in (2, 3) and ${table.keyId} is not null)`,
    ),
    // Only a version-3 record's MAC covers the client address: it always has one, older ones none.
    check(
      'audit_log_client_address_sealed',
      sql`(${table.hashVersion} >= 3) = (${table.clientAddress} is not null)`,
    ),
  ],
);

/**
 * The cut-over to the keyed audit chain (docs/decisions/0041-keyed-audit-chain.md): one row, written
 * once, listing each chain's last plain-hash record and sealed with AUDIT_CHAIN_KEY, so plain
 * hashes are believed only up to those heads. Append-only like audit_log.
 */
export const auditChainCheckpoint = pgTable(
  'audit_chain_checkpoint',
  {
    id: integer('id').primaryKey(),
    keyId: text('key_id').notNull(),
    /** { [chainKey]: { index, id, hash } } */
    heads: jsonb('heads').notNull(),
    mac: text('mac').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [check('audit_chain_checkpoint_single_row', sql`${table.id} = 1`)],
);

/**
 * People who sign in. broker_id is the tenant (null only for SuperAdmin); employer-scoped roles
 * also carry their employer, kept in the same tenant by the composite foreign key.
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** bcrypt (cost 12) of a SHA-256 pre-hash; null until the user has set a password. */
    passwordHash: text('password_hash'),
    role: text('role').notNull(),
    brokerId: text('broker_id').references(() => brokers.id),
    employerId: text('employer_id'),
    status: text('status').notNull().default('active'),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
    /**
     * Raised by sign-out, deactivation, reactivation, a role change and a password change; a
     * session token carries the epoch it was issued under and is refused once they differ.
     */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    /** Seeded for development and test only; never accepted at sign-in in staging or production. */
    isDevelopmentAccount: boolean('is_development_account').notNull().default(false),
    /**
     * A Member account sees this one member record. Migration 0008 declares its foreign key
     * (member_id, employer_id, broker_id) to members, which is defined further down this file.
     */
    memberId: text('member_id'),
    /**
     * An invited account (status 'invited') can be set up through its e-mailed link until then
     * (72 hours, renewed by a resend); null once the account is set up.
     */
    invitedUntil: timestamp('invited_until', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    // One address signs in to one account: unique among accounts that have been set up. Several
    // firms may have invited the same address; the first invitation accepted wins.
    uniqueIndex('users_email_lower_key')
      .on(sql`lower(${table.email})`)
      .where(sql`${table.status} <> 'invited'`),
    // Within a firm an address is held once, invited or not.
    uniqueIndex('users_tenant_email_lower_key').on(table.brokerId, sql`lower(${table.email})`),
    uniqueIndex('users_member_id_key').on(table.memberId).where(sql`${table.memberId} is not null`),
    // Rows that belong to a user reference (id, broker_id) so they stay in the user's tenant.
    unique('users_id_broker_id_key').on(table.id, table.brokerId),
    index('users_broker_id_idx').on(table.brokerId),
    index('users_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    foreignKey({
      name: 'users_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    check(
      'users_role_known',
      sql`${table.role} in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member')`,
    ),
    check('users_status_known', sql`${table.status} in ('invited','active','deactivated')`),
    check(
      'users_invited_until_while_invited',
      sql`(${table.status} = 'invited') = (${table.invitedUntil} is not null)`,
    ),
    check(
      'users_tenant_unless_superadmin',
      sql`(${table.role} = 'SuperAdmin') = (${table.brokerId} is null)`,
    ),
    check(
      'users_member_record_for_members',
      sql`(${table.role} = 'Member') = (${table.memberId} is not null)`,
    ),
    check(
      'users_employer_for_employer_roles',
      sql`(${table.role} in ('EmployerAdmin','EmployerUser','Member')) = (${table.employerId} is not null)`,
    ),
  ],
);

/**
 * service-spec §2.9. Only the SHA-256 of a token is kept. broker_id is the user's tenant (null
 * for a SuperAdmin), so the rows fall under the same row-level security as their user.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    brokerId: text('broker_id').references(() => brokers.id),
    tokenHash: text('token_hash').notNull(),
    /** 'reset' (60 minutes, service-spec §5.5) or 'invitation' (72 hours, docs/decisions/0044-invitations.md). */
    purpose: text('purpose').notNull().default('reset'),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    /** Set when a newer request for the same user replaced this token before it was used. */
    invalidatedAt: timestamp('invalidated_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    uniqueIndex('password_reset_tokens_hash_key').on(table.tokenHash),
    index('password_reset_tokens_user_idx').on(table.userId),
    foreignKey({
      name: 'password_reset_tokens_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
    check('password_reset_tokens_hash_shape', sql`${table.tokenHash} ~ '^[0-9a-f]{64}$'`),
    check('password_reset_tokens_purpose_known', sql`${table.purpose} in ('reset','invitation')`),
  ],
);

/**
 * An account's authenticator-app secret (TOTP, RFC 6238; docs/decisions/0110-second-factor.md),
 * sealed like a PPS number (AES-256-GCM under a key derived from PPS_ENCRYPTION_KEY, bound to its
 * row). Keyed by user: a second factor belongs to an account, and a platform account (broker_id
 * null) has one too, so broker_id is carried for row-level security and the tenant check, not as
 * the key. At most one confirmed secret and one awaiting its first code per account.
 */
export const userTotpSecrets = pgTable(
  'user_totp_secrets',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    id: text('id').notNull(),
    brokerId: text('broker_id').references(() => brokers.id),
    secretSealed: text('secret_sealed').notNull(),
    /** Which key sealed it (pps-keyring.ts's fingerprint). */
    keyId: text('key_id').notNull(),
    /** Null until the first code from the app is entered. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, precision: 3 }),
    /** The latest time step a code was accepted for: that step and every earlier one are spent. */
    lastUsedStep: bigint('last_used_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'user_totp_secrets_pkey', columns: [table.userId, table.id] }),
    uniqueIndex('user_totp_secrets_confirmed_key')
      .on(table.userId)
      .where(sql`${table.confirmedAt} is not null`),
    uniqueIndex('user_totp_secrets_pending_key')
      .on(table.userId)
      .where(sql`${table.confirmedAt} is null`),
    foreignKey({
      name: 'user_totp_secrets_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
  ],
);

/** One-use recovery codes (docs/decisions/0110-second-factor.md): only their SHA-256 is kept. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    id: text('id').notNull(),
    brokerId: text('broker_id').references(() => brokers.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'user_recovery_codes_pkey', columns: [table.userId, table.id] }),
    foreignKey({
      name: 'user_recovery_codes_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
    check('user_recovery_codes_hash_shape', sql`${table.codeHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * Passkeys (WebAuthn credentials; docs/decisions/0111-passkeys.md): a second factor and a way in
 * on their own. The credential id is unique across the platform: a sign-in with a passkey alone
 * finds its account by it.
 */
export const userPasskeys = pgTable(
  'user_passkeys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    id: text('id').notNull(),
    brokerId: text('broker_id').references(() => brokers.id),
    /** base64url, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter; 0 for authenticators that keep none. */
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    /** What the person called it. */
    name: text('name').notNull(),
    backedUp: boolean('backed_up').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'user_passkeys_pkey', columns: [table.userId, table.id] }),
    uniqueIndex('user_passkeys_credential_key').on(table.credentialId),
    foreignKey({
      name: 'user_passkeys_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
  ],
);

/**
 * Transactional outbox: a message is written in the transaction that causes it and delivered
 * afterwards by the mail worker. The message itself (recipient, subject, bodies) is sealed, since
 * it carries a live reset link; it is erased once delivered or no longer worth sending.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: text('id').primaryKey(),
    brokerId: text('broker_id').references(() => brokers.id),
    userId: text('user_id').references(() => users.id),
    kind: text('kind').notNull(),
    sealedMessage: text('sealed_message'),
    status: text('status').notNull().default('pending'),
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull(),
    /** After this the message is pointless (its link has expired) and is dropped unsent. */
    discardAfter: timestamp('discard_after', { withTimezone: true, precision: 3 }).notNull(),
    /** The kind of the last delivery failure (an error code), never the server's words. */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    index('email_outbox_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    foreignKey({
      name: 'email_outbox_user_same_tenant_fk',
      columns: [table.userId, table.brokerId],
      foreignColumns: [users.id, users.brokerId],
    }),
    check('email_outbox_status_known', sql`${table.status} in ('pending','sent','discarded')`),
    check(
      'email_outbox_kind_known',
      sql`${table.kind} in ('password_reset','password_changed','account_created','account_offered','fund_choice_changed','compliance_reminder','second_factor_changed','new_browser_signin')`,
    ),
    check(
      'email_outbox_sealed_while_pending',
      sql`(${table.status} = 'pending') = (${table.sealedMessage} is not null)`,
    ),
  ],
);

export { SCHEME_TYPES } from '../../../contracts/organisation.js';

/** service-spec §2.5. broker_id repeats the employer's, held equal by the composite foreign key. */
export const schemes = pgTable(
  'schemes',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'schemes_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'schemes_employer_same_tenant_fk',
      columns: [table.employerId, table.brokerId],
      foreignColumns: [employers.id, employers.brokerId],
    }),
    unique('schemes_id_broker_id_key').on(table.id, table.brokerId),
    // Rows under a scheme reference all three, so their employer and tenant are the scheme's.
    unique('schemes_id_employer_broker_key').on(table.id, table.employerId, table.brokerId),
    index('schemes_broker_created_idx').on(table.brokerId, table.createdAt, table.id),
    // The reminders job walks every tenant's schemes in this order (governance.data.ts).
    index('schemes_broker_id_idx').on(table.brokerId, table.id),
    index('schemes_employer_idx').on(table.employerId),
    check('schemes_type_known', sql`${table.type} in ('DB','DC','PRSA','RAC')`),
    check('schemes_name_length', sql`char_length(${table.name}) between 1 and 200`),
  ],
);

export { MEMBER_STATUSES } from '../../../contracts/members.js';

/**
 * service-spec §2.6. The PPS number is kept only sealed (AES-256-GCM bound to tenant and member)
 * with a keyed hash beside it for finding duplicates; pps_key_id names the key that sealed it,
 * so a key rotation knows which rows are still to do.
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
    salaryCents: bigint('salary_cents', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('active'),
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
    check('members_status_known', sql`${table.status} in ('active','deferred','retired','left')`),
    check('members_salary_not_negative', sql`${table.salaryCents} >= 0`),
    check('members_pps_lookup_shape', sql`${table.ppsLookup} ~ '^[0-9a-f]{64}$'`),
    check(
      'members_names_present',
      sql`char_length(${table.firstName}) between 1 and 100 and char_length(${table.lastName}) between 1 and 100`,
    ),
  ],
);

/** A fund a scheme offers; members choose among the open funds of their scheme. */
export const funds = pgTable(
  'funds',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    name: text('name').notNull(),
    isin: text('isin'),
    ...timestamps,
    closedAt: timestamp('closed_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    primaryKey({ name: 'funds_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'funds_scheme_same_tenant_fk',
      columns: [table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [schemes.id, schemes.employerId, schemes.brokerId],
    }),
    unique('funds_id_scheme_key').on(table.id, table.schemeId, table.brokerId),
    unique('funds_scheme_name_key').on(table.brokerId, table.schemeId, table.name),
    check('funds_name_length', sql`char_length(${table.name}) between 1 and 200`),
    check(
      'funds_isin_shape',
      sql`${table.isin} is null or ${table.isin} ~ '^[A-Z]{2}[A-Z0-9]{9}[0-9]$'`,
    ),
  ],
);

/** One fund choice of a member, from its effective date; earlier choices are kept as history. */
export const fundAllocations = pgTable(
  'fund_allocations',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'fund_allocations_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'fund_allocations_member_same_tenant_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    unique('fund_allocations_id_scheme_broker_key').on(table.id, table.schemeId, table.brokerId),
    index('fund_allocations_member_idx').on(table.memberId, table.effectiveFrom, table.createdAt),
  ],
);

/** The percentages of one allocation: whole numbers, summing to 100 (checked by the service). */
export const fundAllocationLines = pgTable(
  'fund_allocation_lines',
  {
    allocationId: text('allocation_id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    schemeId: text('scheme_id').notNull(),
    fundId: text('fund_id').notNull(),
    percent: integer('percent').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'fund_allocation_lines_pkey',
      columns: [table.brokerId, table.allocationId, table.fundId],
    }),
    foreignKey({
      name: 'fund_allocation_lines_allocation_fk',
      columns: [table.allocationId, table.schemeId, table.brokerId],
      foreignColumns: [fundAllocations.id, fundAllocations.schemeId, fundAllocations.brokerId],
    }),
    // The fund must be one of the member's own scheme.
    foreignKey({
      name: 'fund_allocation_lines_fund_of_scheme_fk',
      columns: [table.fundId, table.schemeId, table.brokerId],
      foreignColumns: [funds.id, funds.schemeId, funds.brokerId],
    }),
    check('fund_allocation_lines_percent_range', sql`${table.percent} between 1 and 100`),
  ],
);

export { CONTRIBUTION_KINDS } from '../../../contracts/contributions.js';

/**
 * What was paid for a member in one pay period, one row per kind. The amount as first recorded
 * never changes; corrections are adjustments beside it.
 */
export const contributions = pgTable(
  'contributions',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    employerId: text('employer_id').notNull(),
    schemeId: text('scheme_id').notNull(),
    memberId: text('member_id').notNull(),
    period: text('period').notNull(),
    kind: text('kind').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    importId: text('import_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'contributions_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'contributions_member_same_tenant_fk',
      columns: [table.memberId, table.schemeId, table.employerId, table.brokerId],
      foreignColumns: [members.id, members.schemeId, members.employerId, members.brokerId],
    }),
    unique('contributions_member_period_kind_key').on(
      table.brokerId,
      table.memberId,
      table.period,
      table.kind,
    ),
    unique('contributions_id_broker_key').on(table.id, table.brokerId),
    index('contributions_scheme_period_idx').on(table.schemeId, table.period),
    check('contributions_period_shape', sql`${table.period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('contributions_kind_known', sql`${table.kind} in ('employee','employer','avc')`),
    check('contributions_amount_not_negative', sql`${table.amountCents} >= 0`),
  ],
);

/** A correction of a contribution: a signed change with its reason; the total never goes below zero. */
export const contributionAdjustments = pgTable(
  'contribution_adjustments',
  {
    id: text('id').notNull(),
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    contributionId: text('contribution_id').notNull(),
    deltaCents: bigint('delta_cents', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'contribution_adjustments_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'contribution_adjustments_contribution_fk',
      columns: [table.contributionId, table.brokerId],
      foreignColumns: [contributions.id, contributions.brokerId],
    }),
    index('contribution_adjustments_contribution_idx').on(table.contributionId),
    check('contribution_adjustments_delta_nonzero', sql`${table.deltaCents} <> 0`),
    check(
      'contribution_adjustments_reason_length',
      sql`char_length(${table.reason}) between 1 and 500`,
    ),
  ],
);

export { IMPORT_KINDS, IMPORT_STATUSES } from '../../../contracts/imports.js';

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

/*
 * Governance under IORP II (decisions.md §6; rules: contracts/governance-rules.ts). Every table
 * keys on (broker_id, id), and every foreign key and unique constraint carries broker_id, so the
 * schema can be distributed by tenant (docs/deployment.md). Rows are soft-deleted: the registers
 * are what a supervisory review asks to see, ended and superseded entries included.
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
  },
  (table) => [
    primaryKey({ name: 'trustees_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'trustees_scheme_same_tenant_fk',
      columns: [table.brokerId, table.schemeId, table.employerId],
      foreignColumns: [schemes.brokerId, schemes.id, schemes.employerId],
    }),
    index('trustees_scheme_idx').on(table.brokerId, table.schemeId, table.createdAt, table.id),
    check('trustees_kind_known', sql`${table.kind} in ('individual','corporate')`),
    check(
      'trustees_directors_of_corporate',
      sql`${table.directorCount} is null or (${table.kind} = 'corporate' and ${table.directorCount} >= 0)`,
    ),
    check('trustees_name_length', sql`char_length(${table.name}) between 1 and 200`),
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
    // There is no "compliance" key function (domain.md).
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
      sql`${table.kind} in ('risk_management','internal_audit','remuneration','actuarial','outsourcing')`,
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
 * A recorded significant change: to the area of a written policy (its review falls due at once),
 * or, with no policy, to the scheme's risk profile (an ORA falls due without delay).
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
 * Scheduled jobs' runs (docs/decisions/0057-scheduled-jobs.md): platform bookkeeping, no tenant
 * data, reached only as pension_cron. The run key is the job and its slot (`scheduled_for`): at
 * most one run of a key is running or has succeeded, and at most one run of a job is running at
 * all; failed runs stay as history and the key may be run again. `error` is a class name or an
 * error code, held to that shape by the database so no message (which may quote personal data)
 * can be stored; `counts` holds numbers only.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true, precision: 3 }).notNull(),
    /** 1 for the first run of this key, 2 for its first retry, … */
    attempt: integer('attempt').notNull(),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    /** Until then the run is its instance's; after it, another instance may take the job over. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    error: text('error'),
  },
  (table) => [
    uniqueIndex('job_runs_run_key')
      .on(table.job, table.scheduledFor)
      .where(sql`${table.status} in ('running','succeeded')`),
    uniqueIndex('job_runs_one_running_per_job')
      .on(table.job)
      .where(sql`${table.status} = 'running'`),
    index('job_runs_job_slot_idx').on(table.job, table.scheduledFor),
    check('job_runs_status_known', sql`${table.status} in ('running','succeeded','failed')`),
    check('job_runs_job_name', sql`${table.job} ~ '^[a-z][a-z0-9-]{0,47}$'`),
    check(
      'job_runs_finished_unless_running',
      sql`(${table.status} = 'running') = (${table.finishedAt} is null)`,
    ),
    check(
      'job_runs_error_is_a_code',
      sql`(${table.status} = 'failed') = (${table.error} is not null) and (${table.error} is null or ${table.error} ~ '^[A-Za-z0-9_.:-]{1,64}$')`,
    ),
    check(
      'job_runs_counts_are_numbers',
      sql`jsonb_typeof(${table.counts}) = 'object' and not jsonb_path_exists(${table.counts}, '$.* ? (@.type() != "number")')`,
    ),
  ],
);

export { DOCUMENT_TYPES, SCAN_STATUSES } from '../../../contracts/documents.js';

/**
 * One version of a scheme's document (service-spec §2.7; docs/decisions/0062-document-vault.md).
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
    /** Sealed and looked up exactly as a member's (service-spec §2.6; crypto/pps-keyring.ts). */
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

/** PostgreSQL's bytea, as the drivers hand it over: a Buffer (pg) or a Uint8Array (PGlite). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

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

/** PostgreSQL's tsvector: drizzle has no builtin for it, and only the database ever writes it. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The regulatory corpus (docs/decisions/0069-regulatory-corpus-and-retrieval.md): public text,
 * shared by every tenant, so keyed by its own ids rather than by a broker. One row per source
 * document as last ingested; a new version replaces its chunks.
 */
export const ragSources = pgTable(
  'rag_sources',
  {
    /** The caller's stable name for the document, such as `pensions-act-1990`. */
    source: text('source').primaryKey(),
    title: text('title').notNull(),
    url: text('url'),
    version: text('version'),
    format: text('format').notNull(),
    /** SHA-256 of the ingested content: the same content again is skipped whole. */
    contentSha256: text('content_sha256').notNull(),
    chunkCount: integer('chunk_count').notNull(),
    ingestedAt: timestamp('ingested_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    check('rag_sources_format_known', sql`${table.format} in ('text','markdown','html')`),
    check('rag_sources_sha256_hex', sql`${table.contentSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const ragChunks = pgTable(
  'rag_chunks',
  {
    id: text('id').primaryKey(),
    source: text('source')
      .notNull()
      .references(() => ragSources.source, { onDelete: 'cascade' }),
    /** Position within the source, for reading a source back in order. */
    ordinal: integer('ordinal').notNull(),
    /** "Pensions Act 1990 s.64AL(1)": what an answer cites. */
    citation: text('citation').notNull(),
    headingPath: jsonb('heading_path').$type<string[]>().notNull(),
    /** Identifier spellings of the citation ("64AL", "Article 28", "Art 28") matched as typed. */
    keys: text('keys').notNull(),
    body: text('body').notNull(),
    /** SHA-256 of source version, citation, heading path and body: unchanged chunks are kept. */
    contentSha256: text('content_sha256').notNull(),
    /**
     * Weighted for ranking: citation, identifiers and headings (A) above the body (D). The
     * identifier spellings under the `simple` configuration (no stemming, no stop words: "64al",
     * "art", "28" stay as written), words under `english`.
     */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('simple', coalesce(keys, '')), 'A') || setweight(to_tsvector('english', coalesce(citation, '') || ' ' || coalesce(heading_path::text, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'D')`,
      ),
  },
  (table) => [
    unique('rag_chunks_source_hash_key').on(table.source, table.contentSha256),
    index('rag_chunks_search_idx').using('gin', table.search),
    check('rag_chunks_sha256_hex', sql`${table.contentSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
