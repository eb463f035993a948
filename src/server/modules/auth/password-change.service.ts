import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { withActor } from '../../platform/db/with-actor.js';
import { passwordChangedWhileSignedInMessage } from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize } from '../../platform/tenancy/authorize.js';
import { replaceCheckedPassword } from './password-change.data.js';
import { PASSWORD_CHANGED_NOTICE_VALID_MS, withdrawTokens } from './password-reset.service.js';
import { type HashPassword, passwordProblem, verifyPassword } from './passwords.rules.js';
import { findUserById } from './user-lookup.data.js';

/**
 * Checks of the current password one account may have within the window (docs/decisions/0049-changing-ones-own-password.md).
 * Only someone holding a live session of the account can make them, so the
 * guesser is whoever holds that session: beyond the allowance the check is refused outright
 * (429), not merely slowed down as sign-in is, where a refusal would let anyone lock anyone out.
 */
export const CHANGE_PASSWORD_ATTEMPTS = 5;
export const CHANGE_PASSWORD_WINDOW_MS = 15 * 60_000;

export type PasswordChangeOutcome =
  | { ok: true; userId: string }
  | { ok: false; reason: 'weak_password'; problem: string }
  | { ok: false; reason: 'same_password' }
  | { ok: false; reason: 'wrong_password' }
  | { ok: false; reason: 'too_many_attempts'; retryAfterMs: number };

export interface PasswordChangeDeps {
  database: Database;
  audit: AuditService;
  outbox: Outbox;
  /** Shared rate-limit counters: checks of the current password per account. */
  counters: RateLimitStore;
  now: () => Date;
  publicBaseUrl: URL;
  /** Told after a commit that put a message in the outbox, so it goes out at once. */
  onEmailQueued: () => void;
  /** Hashes the new password at the configured cost (passwords.rules.ts). */
  hashPassword: HashPassword;
}

/**
 * A signed-in person, of any role, changes their own password by giving the current one
 * (docs/decisions/0049-changing-ones-own-password.md). The new one meets the same policy as a
 * reset or an invitation (docs/decisions/0108-passwords-guessable-and-breached.md).
 */
export function createPasswordChangeService({
  database,
  audit,
  outbox,
  counters,
  now,
  publicBaseUrl,
  onEmailQueued,
  hashPassword,
}: PasswordChangeDeps) {
  return {
    /**
     * POST /api/auth/change-password. The new password's own problems are answered first: they
     * need no secret and cost no attempt. Then the current password is checked, counted per
     * account. On success the new hash and time are stored; the time raises the session epoch
     * (migration 0009), which ends every session of the account, the caller's included, so the
     * route hands the caller a fresh one. Open reset links end too: they were asked for to
     * replace a password that no longer exists.
     */
    async changePassword(
      actor: ActorContext,
      { currentPassword, newPassword }: { currentPassword: string; newPassword: string },
    ): Promise<PasswordChangeOutcome> {
      authorize(actor, 'account.password.change');
      const problem = await passwordProblem(newPassword);
      if (problem) return { ok: false, reason: 'weak_password', problem };
      // Compared as typed: when the current password is right, this is the stored one.
      if (newPassword === currentPassword) return { ok: false, reason: 'same_password' };

      const { count, resetInMs } = await counters.hit(
        `change-password:${actor.userId}`,
        CHANGE_PASSWORD_WINDOW_MS,
      );
      if (count > CHANGE_PASSWORD_ATTEMPTS) {
        return { ok: false, reason: 'too_many_attempts', retryAfterMs: resetInMs };
      }
      // The session gate confirmed this active account a moment ago; its row has the hash.
      const user = await findUserById(database, actor.userId);
      const storedHash = user?.passwordHash ?? null;
      if (!user || storedHash === null || !(await verifyPassword(currentPassword, storedHash))) {
        return { ok: false, reason: 'wrong_password' };
      }

      const passwordHash = await hashPassword(newPassword);
      const changedAt = now();
      const changed = await withActor(database, actor, async (tx) => {
        // Still the password that was checked: of two changes racing from the same current
        // password, the second finds it gone and is told its current password is wrong.
        const updated = await replaceCheckedPassword(
          tx,
          user.id,
          storedHash,
          passwordHash,
          changedAt,
        );
        if (!updated) return false;
        await withdrawTokens(tx, user.id, changedAt);
        await outbox.enqueue(tx, {
          brokerId: user.brokerId,
          userId: user.id,
          kind: 'password_changed',
          message: passwordChangedWhileSignedInMessage(user.email, {
            forgotPasswordUrl: new URL('/forgot-password', publicBaseUrl).toString(),
          }),
          discardAfter: new Date(changedAt.getTime() + PASSWORD_CHANGED_NOTICE_VALID_MS),
        });
        await audit.record(tx, actor, {
          action: 'user.password_changed',
          entityType: 'user',
          entityId: user.id,
          tenantId: user.brokerId,
          previousState: { passwordChangedAt: user.passwordChangedAt },
          newState: { passwordChangedAt: changedAt },
        });
        return true;
      });
      if (!changed) return { ok: false, reason: 'wrong_password' };
      onEmailQueued();
      return { ok: true, userId: user.id };
    },
  };
}

export type PasswordChangeService = ReturnType<typeof createPasswordChangeService>;
