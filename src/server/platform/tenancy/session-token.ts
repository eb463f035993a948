import { errors, jwtVerify, SignJWT } from 'jose';
import { isRole, type Role } from './roles.js';

const ISSUER = 'pension-admin';
const AUDIENCE = 'pension-admin';

/** Re-issued on activity, so the idle timeout (docs/decisions/0012-signed-session-tokens.md). */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** No session outlives this, however active (docs/decisions/0012-signed-session-tokens.md). */
export const SESSION_ABSOLUTE_SECONDS = 8 * 60 * 60;

/**
 * The session's claims (docs/api.md, "Signing in"; brokerId is null for SuperAdmin, who belongs to
 * no tenant), plus when the user's password last changed: a token carrying an older time is no
 * longer valid.
 */
export interface SessionClaims {
  userId: string;
  role: Role;
  brokerId: string | null;
  employerId: string | null;
  /** Milliseconds since the epoch. */
  passwordChangedAt: number;
  /**
   * users.session_epoch when the token was issued. Sign-out, deactivation, reactivation, a role
   * change and a password change raise it, so every earlier token stops matching (docs/decisions/0036-session-epochs.md).
   */
  sessionEpoch: number;
}

export interface VerifiedSession extends SessionClaims {
  /** When the user signed in (seconds since the epoch). */
  authTime: number;
  /** When this token was issued (seconds since the epoch). */
  issuedAt: number;
  /**
   * When a second factor was last confirmed in this session (seconds since the epoch); null for
   * an account that had none when the token was issued (docs/decisions/0110-second-factor.md).
   * Adding or removing a factor raises the session epoch, so no token outlives the state it says.
   */
  secondFactorAt: number | null;
}

export interface SessionTokenDeps {
  secret: string;
  now: () => Date;
}

/** Verified tokens remembered per process: about 1 KB each. */
const VERIFIED_TOKENS_KEPT = 10_000;

/** HS256 only: the algorithm is pinned on both sides, so `alg: none` or an RS/HS confusion never verifies. */
export function createSessionTokens({ secret, now }: SessionTokenDeps) {
  // Imported once: handing jose raw bytes would import the key again for every token.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const seconds = () => Math.floor(now().getTime() / 1000);
  const verified = new Map<string, { session: VerifiedSession; expiresAt: number }>();
  /** Still within `exp` and the absolute lifetime: checked on every use, cached or not. */
  const current = (session: VerifiedSession, expiresAt: number) =>
    expiresAt > seconds() && seconds() - session.authTime <= SESSION_ABSOLUTE_SECONDS;

  return {
    /**
     * `authTime` carries the original sign-in time through re-issues, `secondFactorAt` the last
     * confirmation of a second factor (null: the account has none).
     */
    async issue(
      claims: SessionClaims,
      authTime: number = seconds(),
      secondFactorAt: number | null = null,
    ): Promise<string> {
      const issuedAt = seconds();
      const expiresAt = Math.min(
        issuedAt + SESSION_IDLE_SECONDS,
        authTime + SESSION_ABSOLUTE_SECONDS,
      );
      return new SignJWT({
        userId: claims.userId,
        role: claims.role,
        brokerId: claims.brokerId,
        employerId: claims.employerId,
        pwc: claims.passwordChangedAt,
        sep: claims.sessionEpoch,
        auth_time: authTime,
        ...(secondFactorAt === null ? {} : { sfa: secondFactorAt }),
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(claims.userId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(await key);
    },

    /**
     * Null for anything that is not a current, untampered token of ours. A token whose signature
     * was verified once is remembered (a bounded number of them) until it expires: the signature
     * cannot change, and checking it costs more than everything else in a cached read.
     */
    async verify(token: string): Promise<VerifiedSession | null> {
      const remembered = verified.get(token);
      if (remembered) {
        if (current(remembered.session, remembered.expiresAt)) return remembered.session;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now(),
          requiredClaims: ['iat', 'exp', 'sub'],
        });
        const {
          userId,
          role,
          brokerId,
          employerId,
          pwc,
          sep,
          auth_time: authTime,
          iat,
          sfa,
        } = payload;
        if (
          typeof userId !== 'string' ||
          userId !== payload.sub ||
          !isRole(role) ||
          !(brokerId === null || typeof brokerId === 'string') ||
          !(employerId === null || typeof employerId === 'string') ||
          typeof authTime !== 'number' ||
          typeof pwc !== 'number' ||
          !Number.isSafeInteger(sep) ||
          typeof iat !== 'number' ||
          !(sfa === undefined || typeof sfa === 'number') ||
          (role === 'SuperAdmin') !== (brokerId === null) ||
          seconds() - authTime > SESSION_ABSOLUTE_SECONDS
        ) {
          return null;
        }
        const session: VerifiedSession = {
          userId,
          role,
          brokerId,
          employerId,
          passwordChangedAt: pwc,
          sessionEpoch: sep as number,
          authTime,
          issuedAt: iat,
          secondFactorAt: typeof sfa === 'number' ? sfa : null,
        };
        if (verified.size >= VERIFIED_TOKENS_KEPT) {
          // Maps keep insertion order: the first key is the oldest remembered token.
          verified.delete(verified.keys().next().value as string);
        }
        verified.set(token, { session, expiresAt: payload.exp as number });
        return session;
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;

/**
 * A verified token's claims still to be held against the user's row
 * (docs/decisions/0012-signed-session-tokens.md), and where that stands for the request
 * (docs/decisions/0060-request-path-one-round-trip.md). The gate
 * admits a request whose token it has seen confirmed before with the check still `pending`; the
 * request's first transaction then runs it (`app_session_check`, migration 0017) in the same
 * batch as its role, tenant and first statement, and a request that answers before any
 * transaction ran it is checked with a read before its answer leaves (auth-gate.plugin.ts). One object
 * per request, shared by every copy of the request's actor.
 */
export interface SessionCheck {
  readonly claims: SessionClaims;
  /** False in staging and production: development accounts fail like unknown ones. */
  readonly acceptDevelopmentAccounts: boolean;
  state: 'pending' | 'confirmed' | 'refused';
}
