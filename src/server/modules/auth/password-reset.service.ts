import { createHash, randomBytes } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import { INVITATION_VALID_HOURS } from '../../../contracts/accounts.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import {
  type Transaction,
  withActor,
  withAuthenticationRole,
} from '../../platform/db/with-actor.js';
import {
  passwordChangedMessage,
  passwordResetLink,
  passwordResetMessage,
} from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';
import { actorFor, anonymousActor } from '../../platform/tenancy/actor.js';
import { isRole, type Role } from '../../platform/tenancy/roles.js';
import {
  claimToken,
  findTokenByHash,
  insertToken,
  invalidateOpenTokens,
  type ResetTokenRow,
  setResetPassword,
} from './password-reset.data.js';
import { type HashPassword, passwordProblem } from './passwords.rules.js';
import { findUserByEmail, findUserById, type UserRow } from './user-lookup.data.js';

/** 32 random bytes, good for 60 minutes (docs/decisions/0020-password-reset.md). */
export const RESET_TOKEN_BYTES = 32;
export const RESET_TOKEN_VALID_MS = 60 * 60_000;
export const RESET_ATTEMPTS_PER_TOKEN = 3;
/**
 * Reset e-mails one address can cause per hour. Beyond it a request is answered as usual and
 * sends nothing, so no one can flood an inbox from many addresses, and the answer still says
 * nothing about whether the account exists.
 */
export const RESET_EMAILS_PER_ACCOUNT_PER_HOUR = 5;
/** The password-changed notice is worth sending for a day. */
export const PASSWORD_CHANGED_NOTICE_VALID_MS = 24 * 60 * 60_000;

interface RequestOrigin {
  ipAddress: string;
  userAgent: string;
}

export type ResetRequestOutcome =
  | { sent: true; userId: string }
  /** Nothing was sent: no such usable account, or too many requests for this address. */
  | { sent: false; userId: string | null; reason: 'no_account' | 'account_throttled' };

export type ResetOutcome =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid_token'; userId: string | null }
  | { ok: false; reason: 'too_many_attempts'; userId: string | null; retryAfterMs: number }
  | { ok: false; reason: 'weak_password'; userId: string; problem: string };

/** The token a link carries: 32 random bytes as base64url (43 characters). */
export function newResetToken(): { token: string; hash: string } {
  const bytes = randomBytes(RESET_TOKEN_BYTES);
  return { token: bytes.toString('base64url'), hash: hashOfTokenBytes(bytes) };
}

function hashOfTokenBytes(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The stored hash a presented token would have, or null when it cannot be one of ours. */
export function resetTokenHash(token: string): string | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  return bytes.length === RESET_TOKEN_BYTES ? hashOfTokenBytes(bytes) : null;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export type TokenPurpose = 'reset' | 'invitation';
/**
 * An invitation link is valid INVITATION_VALID_HOURS; a reset link stays at 60 minutes
 * (docs/decisions/0044-invitations.md).
 */
export const INVITATION_VALID_MS = INVITATION_VALID_HOURS * 60 * 60_000;
const VALID_MS: Record<TokenPurpose, number> = {
  reset: RESET_TOKEN_VALID_MS,
  invitation: INVITATION_VALID_MS,
};

/**
 * A new token for the user, stored hashed, in the caller's transaction; every older open token of
 * the user is invalidated (docs/decisions/0020-password-reset.md). Returns the plaintext for the
 * e-mail.
 */
export async function issueToken(
  tx: Transaction,
  user: { id: string; brokerId: string | null },
  at: Date,
  purpose: TokenPurpose,
): Promise<{ token: string; tokenId: string; expiresAt: Date; replacedTokenIds: string[] }> {
  const { token, hash } = newResetToken();
  const expiresAt = new Date(at.getTime() + VALID_MS[purpose]);
  const replacedTokenIds = await invalidateOpenTokens(tx, user.id, at);
  const tokenId = createId();
  await insertToken(tx, {
    id: tokenId,
    userId: user.id,
    brokerId: user.brokerId,
    tokenHash: hash,
    purpose,
    expiresAt,
    createdAt: at,
  });
  return { token, tokenId, expiresAt, replacedTokenIds };
}

/** Ends every open link of the user (an invitation withdrawn by deactivating the account). */
export async function withdrawTokens(tx: Transaction, userId: string, at: Date): Promise<void> {
  await invalidateOpenTokens(tx, userId, at);
}

/** A stored link of this purpose that is neither used, replaced nor past its time. */
function isOpen(stored: ResetTokenRow, purpose: TokenPurpose, at: Date): boolean {
  return (
    stored.purpose === purpose &&
    stored.usedAt === null &&
    stored.invalidatedAt === null &&
    stored.expiresAt.getTime() > at.getTime()
  );
}

export type TokenLookup =
  | { ok: true; stored: ResetTokenRow }
  | { ok: false; reason: 'invalid_token'; userId: string | null }
  | { ok: false; reason: 'too_many_attempts'; userId: string | null; retryAfterMs: number };

/**
 * The open token of this purpose that a link carries. Every presentation counts against the token
 * (3 tries a link: docs/api.md, "Rate limits"), found or not, so a guessed token costs the same.
 */
export async function lookUpToken(
  database: Database,
  counters: RateLimitStore,
  token: string,
  purpose: TokenPurpose,
  at: Date,
): Promise<TokenLookup> {
  const hash = resetTokenHash(token);
  const { count, resetInMs } = await counters.hit(
    `reset-token:${hash ?? sha256Hex(token)}`,
    VALID_MS[purpose],
  );
  if (hash === null) return { ok: false, reason: 'invalid_token', userId: null };
  const stored = await withAuthenticationRole(database, (tx) => findTokenByHash(tx, hash));
  if (count > RESET_ATTEMPTS_PER_TOKEN) {
    return {
      ok: false,
      reason: 'too_many_attempts',
      userId: stored?.userId ?? null,
      retryAfterMs: resetInMs,
    };
  }
  return stored !== undefined && isOpen(stored, purpose, at)
    ? { ok: true, stored }
    : { ok: false, reason: 'invalid_token', userId: stored?.userId ?? null };
}

export interface PasswordResetDeps {
  database: Database;
  audit: AuditService;
  outbox: Outbox;
  /** Shared rate-limit counters: attempts per token, e-mails per address. */
  counters: RateLimitStore;
  now: () => Date;
  publicBaseUrl: URL;
  /** False in staging and production: development accounts cannot be reset there. */
  acceptDevelopmentAccounts: boolean;
  /** Told after a commit that put a message in the outbox, so it goes out at once. */
  onEmailQueued: () => void;
  /** Hashes the new password at the configured cost (passwords.rules.ts). */
  hashPassword: HashPassword;
}

/**
 * The password reset token from request to use, expiry or replacement
 * (docs/decisions/0020-password-reset.md).
 */
export function createPasswordResetService({
  database,
  audit,
  outbox,
  counters,
  now,
  publicBaseUrl,
  acceptDevelopmentAccounts,
  onEmailQueued,
  hashPassword,
}: PasswordResetDeps) {
  const usableOrNot = (user: UserRow | undefined) => {
    const usable =
      user !== undefined &&
      user.status === 'active' &&
      isRole(user.role) &&
      (acceptDevelopmentAccounts || !user.isDevelopmentAccount);
    return { user, usable };
  };

  return {
    /**
     * POST /api/auth/forgot-password: a new token for an active account, replacing its older
     * unused ones, with the e-mail that carries it written to the outbox in the same transaction.
     */
    async requestReset(email: string, origin: RequestOrigin): Promise<ResetRequestOutcome> {
      const normalised = email.trim().toLowerCase();
      const { user, usable } = usableOrNot(await findUserByEmail(database, normalised));
      const { count } = await counters.hit(
        `reset-email:${sha256Hex(normalised)}`,
        RESET_TOKEN_VALID_MS,
      );
      if (!usable || !user) return { sent: false, userId: user?.id ?? null, reason: 'no_account' };
      if (count > RESET_EMAILS_PER_ACCOUNT_PER_HOUR) {
        return { sent: false, userId: user.id, reason: 'account_throttled' };
      }

      const at = now();
      const actor = anonymousActor(user.brokerId, origin);
      await withActor(database, actor, async (tx) => {
        const { token, tokenId, expiresAt, replacedTokenIds } = await issueToken(
          tx,
          user,
          at,
          'reset',
        );
        await outbox.enqueue(tx, {
          brokerId: user.brokerId,
          userId: user.id,
          kind: 'password_reset',
          message: passwordResetMessage(user.email, {
            link: passwordResetLink(publicBaseUrl, token),
            validMinutes: RESET_TOKEN_VALID_MS / 60_000,
          }),
          discardAfter: expiresAt,
        });
        await audit.record(tx, actor, {
          action: 'user.password_reset_requested',
          entityType: 'user',
          entityId: user.id,
          tenantId: user.brokerId,
          previousState: null,
          newState: { resetTokenId: tokenId, expiresAt, replacedTokenIds },
        });
      });
      onEmailQueued();
      return { sent: true, userId: user.id };
    },

    /**
     * POST /api/auth/reset-link: whether the link would set a password now, read without using
     * it up and without counting against its three attempts, so its page can say at once that it
     * is dead (docs/decisions/0020-password-reset.md). The same conditions as the reset below.
     */
    async linkUsable(token: string): Promise<boolean> {
      const hash = resetTokenHash(token);
      if (hash === null) return false;
      const stored = await withAuthenticationRole(database, (tx) => findTokenByHash(tx, hash));
      if (stored === undefined || !isOpen(stored, 'reset', now())) return false;
      return usableOrNot(await findUserById(database, stored.userId)).usable;
    },

    /**
     * POST /api/auth/reset-password: an unused, unexpired, unreplaced token sets a new password,
     * which ends every session issued before it (their password-change time no longer matches).
     */
    async resetPassword(
      token: string,
      password: string,
      origin: RequestOrigin,
    ): Promise<ResetOutcome> {
      const found = await lookUpToken(database, counters, token, 'reset', now());
      if (!found.ok) return found;
      const { stored } = found;
      const { user, usable } = usableOrNot(await findUserById(database, stored.userId));
      if (!usable || !user) return { ok: false, reason: 'invalid_token', userId: stored.userId };
      const problem = await passwordProblem(password);
      if (problem) return { ok: false, reason: 'weak_password', userId: user.id, problem };
      const passwordHash = await hashPassword(password);

      // A user who proved they hold the link acts as themselves.
      const actor = actorFor(
        {
          userId: user.id,
          email: user.email,
          role: user.role as Role,
          brokerId: user.brokerId,
          employerId: user.employerId,
          memberId: user.memberId,
        },
        origin,
      );
      const changedAt = now();
      const done = await withActor(database, actor, async (tx) => {
        if (!(await claimToken(tx, stored.id, changedAt))) return false;
        // The new password_changed_at also raises session_epoch (migration 0009): every
        // session signed in before the reset ends.
        const updated = await setResetPassword(tx, user.id, passwordHash, changedAt);
        if (!updated) return false;
        await invalidateOpenTokens(tx, user.id, changedAt);
        await outbox.enqueue(tx, {
          brokerId: user.brokerId,
          userId: user.id,
          kind: 'password_changed',
          message: passwordChangedMessage(user.email, {
            signInUrl: new URL('/signin', publicBaseUrl).toString(),
          }),
          discardAfter: new Date(changedAt.getTime() + PASSWORD_CHANGED_NOTICE_VALID_MS),
        });
        await audit.record(tx, actor, {
          action: 'user.password_reset',
          entityType: 'user',
          entityId: user.id,
          tenantId: user.brokerId,
          previousState: { passwordChangedAt: user.passwordChangedAt },
          newState: { passwordChangedAt: changedAt, resetTokenId: stored.id },
        });
        return true;
      });
      if (!done) return { ok: false, reason: 'invalid_token', userId: user.id };
      onEmailQueued();
      return { ok: true, userId: user.id };
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
