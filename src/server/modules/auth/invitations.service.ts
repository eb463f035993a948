import type { InvitationLinkAnswer } from '../../../contracts/accounts.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { withActor, withAuthenticationRole, withTenantRole } from '../../platform/db/with-actor.js';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';
import { actorFor } from '../../platform/tenancy/actor.js';
import { isRole } from '../../platform/tenancy/roles.js';
import { activateInvitedAccount, invitingNames } from './invitations.data.js';
import { claimToken, findTokenByHash } from './password-reset.data.js';
import { lookUpToken, resetTokenHash, withdrawTokens } from './password-reset.service.js';
import { type HashPassword, passwordProblem } from './passwords.rules.js';
import { findUserById } from './user-lookup.data.js';

interface RequestOrigin {
  ipAddress: string;
  userAgent: string;
}

export type AcceptOutcome =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid_token'; userId: string | null }
  | { ok: false; reason: 'too_many_attempts'; userId: string | null; retryAfterMs: number }
  | { ok: false; reason: 'weak_password'; userId: string; problem: string }
  /** The address signed in to another account since it was invited (another firm's invitation). */
  | { ok: false; reason: 'address_taken'; userId: string };

export interface InvitationsDeps {
  database: Database;
  audit: AuditService;
  counters: RateLimitStore;
  now: () => Date;
  /** Hashes the new password at the configured cost (passwords.rules.ts). */
  hashPassword: HashPassword;
}

class AddressTaken extends Error {}

/** The roles whose invitation names an employer: the one they work for, or whose scheme they are in. */
const EMPLOYER_ROLES: ReadonlySet<string> = new Set(['EmployerAdmin', 'EmployerUser', 'Member']);

/**
 * An invited account is set up by the person who holds its e-mailed link, who chooses their
 * password there and is signed in (the route issues the session;
 * docs/decisions/0044-invitations.md).
 */
export function createInvitationsService({
  database,
  audit,
  counters,
  now,
  hashPassword,
}: InvitationsDeps) {
  return {
    /**
     * Whether the link can still set a password, read without using it up: its page says at once
     * that it is used or expired instead of after the password is typed
     * (docs/decisions/0125-invitation-link-checked-first.md). It does not count against the
     * link's three attempts, which guard the password it sets; the route's own limit counts it.
     * An open link also says what it is to, as its e-mail did (docs/decisions/0044-invitations.md):
     * the firm, the employer of an employer's or member's account, a member's scheme, and the role;
     * a closed one, its state alone.
     */
    async linkState(token: string): Promise<InvitationLinkAnswer> {
      const hash = resetTokenHash(token);
      if (hash === null) return { state: 'not_valid' };
      const stored = await withAuthenticationRole(database, (tx) => findTokenByHash(tx, hash));
      if (stored === undefined || stored.purpose !== 'invitation') return { state: 'not_valid' };
      if (stored.usedAt !== null) return { state: 'used' };
      if (stored.invalidatedAt !== null) return { state: 'not_valid' };
      if (stored.expiresAt.getTime() <= now().getTime()) return { state: 'expired' };
      const user = await findUserById(database, stored.userId);
      if (user?.status !== 'invited' || !isRole(user.role)) return { state: 'not_valid' };
      const { brokerId, role } = user;
      // A platform account belongs to no firm; an account of a firm is read inside its tenant.
      const names =
        brokerId === null
          ? { firm: null, employer: null, scheme: null }
          : await withTenantRole(database, brokerId, (tx) =>
              invitingNames(
                tx,
                brokerId,
                EMPLOYER_ROLES.has(role) ? user.employerId : null,
                role === 'Member' ? user.memberId : null,
              ),
            );
      return { state: 'open', invitation: { ...names, role } };
    },

    async accept(token: string, password: string, origin: RequestOrigin): Promise<AcceptOutcome> {
      const found = await lookUpToken(database, counters, token, 'invitation', now());
      if (!found.ok) return found;
      const { stored } = found;
      const user = await findUserById(database, stored.userId);
      if (user?.status !== 'invited' || !isRole(user.role)) {
        return { ok: false, reason: 'invalid_token', userId: stored.userId };
      }
      const problem = await passwordProblem(password);
      if (problem) return { ok: false, reason: 'weak_password', userId: user.id, problem };
      const passwordHash = await hashPassword(password);

      // A person who proved they hold the link acts as the account they were invited to.
      const actor = actorFor(
        {
          userId: user.id,
          email: user.email,
          role: user.role,
          brokerId: user.brokerId,
          employerId: user.employerId,
          memberId: user.memberId,
        },
        origin,
      );
      const at = now();
      try {
        const done = await withActor(database, actor, async (tx) => {
          if (!(await claimToken(tx, stored.id, at))) return false;
          let updated: { id: string } | undefined;
          try {
            updated = await activateInvitedAccount(tx, user.id, passwordHash, at);
          } catch (error) {
            // An address signs in to one account (migration 0012): another firm's invitation to
            // the same address was accepted first.
            if (isUniqueViolation(error, 'users_email_lower_key')) throw new AddressTaken();
            throw error;
          }
          if (!updated) return false;
          await withdrawTokens(tx, user.id, at);
          await audit.record(tx, actor, {
            action: 'user.invitation_accepted',
            entityType: 'user',
            entityId: user.id,
            tenantId: user.brokerId,
            previousState: { status: 'invited' },
            newState: { status: 'active', passwordChangedAt: at, invitationTokenId: stored.id },
          });
          return true;
        });
        if (!done) return { ok: false, reason: 'invalid_token', userId: user.id };
      } catch (error) {
        if (error instanceof AddressTaken) {
          return { ok: false, reason: 'address_taken', userId: user.id };
        }
        throw error;
      }
      return { ok: true, userId: user.id };
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
