import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.tables.js';
import { brokers } from './tenancy.tables.js';

/**
 * Reset and invitation links (docs/decisions/0020-password-reset.md). Only the SHA-256 of a token
 * is kept. broker_id is the user's tenant (null for a SuperAdmin), so the rows fall under the same
 * row-level security as their user.
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
    /**
     * 'reset' (60 minutes, docs/decisions/0020-password-reset.md) or 'invitation' (72 hours,
     * docs/decisions/0044-invitations.md).
     */
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
