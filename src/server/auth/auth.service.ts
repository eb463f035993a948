import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { withActor } from '../db/with-actor.js';
import type { ActorContext } from '../tenancy/actor.js';
import { authorize } from '../tenancy/authorize.js';
import { isRole, type Role } from '../tenancy/roles.js';
import { verifyPassword } from './passwords.js';
import type { SessionCheck } from './session-check.js';
import type { SessionClaims, SessionTokens, VerifiedSession } from './session-token.js';
import { findUserByEmail, findUserById, type UserRow } from './user-lookup.js';

/** What the browser may see of the signed-in user (decisions.md §2). */
export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  brokerId: string | null;
  employerId: string | null;
}

/** A verified token whose user still exists, is active and has not changed since it was issued. */
export interface AuthenticatedSession extends VerifiedSession {
  email: string;
  /** A Member's member record, from the user row (not a token claim). */
  memberId: string | null;
  /**
   * Where the check against the user's row stands for this request: `confirmed` when the gate
   * read the row, `pending` when it is owed and rides in the request's first transaction
   * (session-check.ts).
   */
  check: SessionCheck;
}

/**
 * What a confirmed session's row said beyond its claims (e-mail, member record), remembered per
 * user for the gate. It never admits anyone: it is used only for a token whose claims are exactly
 * those it was confirmed with, and such a request is still checked against the row before it
 * reads, writes or answers (docs/decisions/0060-request-path-one-round-trip.md).
 */
interface ConfirmedClaims {
  claims: SessionClaims;
  email: string;
  memberId: string | null;
}

/** Users remembered per process for the gate, about 200 bytes each. */
const CONFIRMED_USERS_KEPT = 10_000;

function sameClaims(a: SessionClaims, b: SessionClaims): boolean {
  return (
    a.userId === b.userId &&
    a.sessionEpoch === b.sessionEpoch &&
    a.passwordChangedAt === b.passwordChangedAt &&
    a.role === b.role &&
    a.brokerId === b.brokerId &&
    a.employerId === b.employerId
  );
}

export type SignInResult =
  | { ok: true; user: SessionUser; token: string }
  /** userId when the e-mail belongs to an account, for the security log only. */
  | { ok: false; userId: string | null };

export interface AuthServiceDeps {
  database: Database;
  tokens: SessionTokens;
  /** False in staging and production: development accounts then fail like unknown ones. */
  acceptDevelopmentAccounts: boolean;
  dummyHash: Promise<string>;
}

/** The session claims of a user row, as sign-in issues them and every session check compares them. */
export function claimsOf(user: UserRow & { role: Role }): SessionClaims {
  return {
    userId: user.id,
    role: user.role,
    brokerId: user.brokerId,
    employerId: user.employerId,
    passwordChangedAt: user.passwordChangedAt.getTime(),
    sessionEpoch: user.sessionEpoch,
  };
}

function sessionUserOf(user: UserRow & { role: Role }): SessionUser {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    brokerId: user.brokerId,
    employerId: user.employerId,
  };
}

export function createAuthService({
  database,
  tokens,
  acceptDevelopmentAccounts,
  dummyHash,
}: AuthServiceDeps) {
  const usable = (
    user: UserRow | undefined,
  ): user is UserRow & { role: Role; passwordHash: string } =>
    user !== undefined &&
    user.status === 'active' &&
    user.passwordHash !== null &&
    isRole(user.role) &&
    (acceptDevelopmentAccounts || !user.isDevelopmentAccount);
  const confirmedUsers = new Map<string, ConfirmedClaims>();
  const remember = (entry: ConfirmedClaims) => {
    confirmedUsers.delete(entry.claims.userId);
    if (confirmedUsers.size >= CONFIRMED_USERS_KEPT) {
      // Maps keep insertion order: the first key is the one confirmed longest ago.
      confirmedUsers.delete(confirmedUsers.keys().next().value as string);
    }
    confirmedUsers.set(entry.claims.userId, entry);
  };

  return {
    /**
     * service-spec §5.1: finds the user by e-mail (any case) and checks the password. An unknown
     * e-mail, a deactivated or passwordless account and a wrong password all cost one bcrypt
     * comparison and give the same answer.
     */
    async signIn(email: string, password: string): Promise<SignInResult> {
      const user = await findUserByEmail(database, email.trim());
      if (!usable(user)) {
        await verifyPassword(password, await dummyHash);
        return { ok: false, userId: user?.id ?? null };
      }
      if (!(await verifyPassword(password, user.passwordHash)))
        return { ok: false, userId: user.id };
      return { ok: true, user: sessionUserOf(user), token: await tokens.issue(claimsOf(user)) };
    },

    /**
     * A session for a user who has just proved who they are another way (an accepted
     * invitation), under the same checks as a sign-in; null when the account is not usable.
     */
    async sessionFor(userId: string): Promise<{ user: SessionUser; token: string } | null> {
      const user = await findUserById(database, userId);
      if (!usable(user)) return null;
      return { user: sessionUserOf(user), token: await tokens.issue(claimsOf(user)) };
    },

    /**
     * The claims of a token whose signature, algorithm and times hold, without reading the
     * database: enough to say whose request it is (the rate limits count signed-in traffic per
     * user), not yet that the session still holds.
     */
    verifyToken(token: string): Promise<VerifiedSession | null> {
      return tokens.verify(token);
    },

    /** The session behind verified claims, or null when its user no longer holds (one read). */
    async confirm(session: VerifiedSession): Promise<AuthenticatedSession | null> {
      const user = await findUserById(database, session.userId);
      if (!usable(user)) return null;
      const current = claimsOf(user);
      if (!sameClaims(current, session)) return null;
      remember({ claims: current, email: user.email, memberId: user.memberId });
      return {
        ...session,
        email: user.email,
        memberId: user.memberId,
        check: { claims: current, acceptDevelopmentAccounts, state: 'confirmed' },
      };
    },

    /**
     * The session behind verified claims without reading the database, when this process has
     * confirmed exactly these claims before; its check is then `pending`, owed by the request
     * (session-check.ts). Null when they were never confirmed here: the caller reads (confirm).
     */
    admit(session: VerifiedSession): AuthenticatedSession | null {
      const known = confirmedUsers.get(session.userId);
      if (!known || !sameClaims(known.claims, session)) return null;
      return {
        ...session,
        email: known.email,
        memberId: known.memberId,
        check: { claims: known.claims, acceptDevelopmentAccounts, state: 'pending' },
      };
    },

    /** Forgets what was remembered of a user whose session check failed. */
    forget(userId: string): void {
      confirmedUsers.delete(userId);
    },

    /**
     * Sign-out ends every session of the signed-in user, not only the token presented: the
     * epoch rises and each earlier token stops matching (docs/decisions/0036-session-epochs.md). It runs as the
     * actor, whose row-level security already lets them change their own row, so no new grant
     * is needed.
     */
    async endSessions(actor: ActorContext): Promise<void> {
      authorize(actor, 'session.end');
      await withActor(database, actor, (tx) =>
        tx
          .update(users)
          .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
          .where(eq(users.id, actor.userId)),
      );
    },

    /** A fresh token for an active session: the idle timeout restarts, the absolute one does not. */
    renew(session: AuthenticatedSession): Promise<string> {
      return tokens.issue(session, session.authTime);
    },

    sessionUser(session: AuthenticatedSession): SessionUser {
      return {
        id: session.userId,
        email: session.email,
        role: session.role,
        brokerId: session.brokerId,
        employerId: session.employerId,
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
