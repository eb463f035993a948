import {
  RECENT_SECOND_FACTOR_SECONDS,
  type SecondFactorMethod,
} from '../../../contracts/second-factor.js';
import type { Database } from '../../platform/db/database.js';
import { withActor, withAuthenticationRole } from '../../platform/db/with-actor.js';
import type { ActorContext, SecondFactorState } from '../../platform/tenancy/actor.js';
import { authorize } from '../../platform/tenancy/authorize.js';
import { isRole, type Role } from '../../platform/tenancy/roles.js';
import type {
  SessionCheck,
  SessionClaims,
  SessionTokens,
  VerifiedSession,
} from '../../platform/tenancy/session-token.js';
import { verifyPassword } from './passwords.rules.js';
import { endSessionsOf, type FactorsHeld, factorsHeld, hasFactor } from './second-factor.data.js';
import { findUserByEmail, findUserById, type UserRow } from './user-lookup.data.js';

/** What the browser may see of the signed-in user (docs/api.md, "Signing in"). */
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
  /** Where the session's second factor stands now (docs/decisions/0110-second-factor.md). */
  secondFactor: SecondFactorState;
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
  /**
   * The password was right and the account has a second factor: no session yet, only the second
   * step (docs/decisions/0110-second-factor.md).
   */
  | {
      ok: true;
      secondStep: {
        userId: string;
        sessionEpoch: number;
        passwordChangedAt: number;
        methods: SecondFactorMethod[];
      };
    }
  /** userId when the e-mail belongs to an account, for the security log only. */
  | { ok: false; userId: string | null };

export interface AuthServiceDeps {
  database: Database;
  tokens: SessionTokens;
  /** False in staging and production: development accounts then fail like unknown ones. */
  acceptDevelopmentAccounts: boolean;
  dummyHash: Promise<string>;
  now: () => Date;
}

/** The ways in an account offers at its second step, from what it holds. */
export function methodsOf(held: FactorsHeld): SecondFactorMethod[] {
  return [
    ...(held.passkeys > 0 ? (['passkey'] as const) : []),
    ...(held.totp ? (['totp'] as const) : []),
    ...(held.recoveryCodesLeft > 0 ? (['recovery_code'] as const) : []),
  ];
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
  now,
}: AuthServiceDeps) {
  const secondFactorOf = (session: VerifiedSession): SecondFactorState => {
    if (session.secondFactorAt === null) return 'none';
    const age = now().getTime() / 1000 - session.secondFactorAt;
    return age <= RECENT_SECOND_FACTOR_SECONDS ? 'recent' : 'earlier';
  };
  const factorsOf = (userId: string) =>
    withAuthenticationRole(database, (tx) => factorsHeld(tx, userId));
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
     * Finds the user by e-mail (any case) and checks the password
     * (docs/decisions/0015-passwords-and-sign-in.md). An unknown e-mail, a deactivated or
     * passwordless account and a wrong password all cost one bcrypt comparison and give the same
     * answer.
     */
    async signIn(email: string, password: string): Promise<SignInResult> {
      const user = await findUserByEmail(database, email.trim());
      if (!usable(user)) {
        await verifyPassword(password, await dummyHash);
        return { ok: false, userId: user?.id ?? null };
      }
      if (!(await verifyPassword(password, user.passwordHash)))
        return { ok: false, userId: user.id };
      const held = await factorsOf(user.id);
      if (hasFactor(held)) {
        const claims = claimsOf(user);
        return {
          ok: true,
          secondStep: {
            userId: user.id,
            sessionEpoch: claims.sessionEpoch,
            passwordChangedAt: claims.passwordChangedAt,
            methods: methodsOf(held),
          },
        };
      }
      return { ok: true, user: sessionUserOf(user), token: await tokens.issue(claimsOf(user)) };
    },

    /**
     * A session for a user who has just proved who they are another way (an accepted
     * invitation, a second factor, a password change in a live session), under the same checks
     * as a sign-in; null when the account is not usable. `secondFactorAt` is when a second factor
     * was last confirmed: an account that has a factor gets no session without one, and one that
     * has none gets a session that says so, whatever was given
     * (docs/decisions/0110-second-factor.md). `authTime` keeps a live session's sign-in time.
     */
    async sessionFor(
      userId: string,
      secondFactorAt: number | null = null,
      authTime?: number,
    ): Promise<{ user: SessionUser; token: string } | null> {
      const user = await findUserById(database, userId);
      if (!usable(user)) return null;
      const factor = hasFactor(await factorsOf(user.id));
      if (factor && secondFactorAt === null) return null;
      return {
        user: sessionUserOf(user),
        token: await tokens.issue(claimsOf(user), authTime, factor ? secondFactorAt : null),
      };
    },

    /**
     * The user behind a second-step challenge whose account has not changed since the password
     * was checked (same epoch, same password), or null.
     */
    async secondStepUser(challenge: {
      userId: string;
      sessionEpoch: number;
      passwordChangedAt: number;
    }): Promise<(UserRow & { role: Role }) | null> {
      const user = await findUserById(database, challenge.userId);
      if (!usable(user)) return null;
      const claims = claimsOf(user);
      if (
        claims.sessionEpoch !== challenge.sessionEpoch ||
        claims.passwordChangedAt !== challenge.passwordChangedAt
      ) {
        return null;
      }
      return user;
    },

    /** A usable account by id, for a sign-in with a passkey alone; null otherwise. */
    async usableUser(userId: string): Promise<(UserRow & { role: Role }) | null> {
      const user = await findUserById(database, userId);
      return usable(user) ? user : null;
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
        secondFactor: secondFactorOf(session),
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
        secondFactor: secondFactorOf(session),
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
      await withActor(database, actor, (tx) => endSessionsOf(tx, actor.userId));
    },

    /** A fresh token for an active session: the idle timeout restarts, the absolute one does not. */
    renew(session: AuthenticatedSession): Promise<string> {
      return tokens.issue(session, session.authTime, session.secondFactorAt);
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
