import { createHmac, createSecretKey } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { deriveKey } from '../../platform/crypto/sealed-box.js';

/**
 * Short-lived signed values the browser carries between two steps of a sign-in, so the service
 * keeps no server-side state for them (docs/decisions/0012-signed-session-tokens.md,
 * 0110-second-factor.md, 0111-passkeys.md): HS256 under a key derived from AUTH_SECRET for each
 * purpose, so a value made for one purpose never verifies as another, and never as a session token.
 */

const ISSUER = 'pension-admin';

/** After a correct password: whose second step it is, and the account state it was given under. */
export interface SecondStepChallenge {
  userId: string;
  sessionEpoch: number;
  passwordChangedAt: number;
}

/** A WebAuthn ceremony under way: its challenge, and the account it is for when one is known. */
export interface WebAuthnChallenge {
  challenge: string;
  purpose: 'register' | 'authenticate';
  userId: string | null;
}

/** How long the second step, or a passkey prompt, may take. */
export const CHALLENGE_SECONDS = 5 * 60;

/** The browsers an account has signed in from are remembered for 400 days, browsers' cookie limit. */
export const KNOWN_BROWSER_SECONDS = 400 * 24 * 60 * 60;
/** A shared office computer remembers this many accounts; the oldest goes first. */
const KNOWN_ACCOUNTS_KEPT = 20;

export function createChallengeTokens({ secret, now }: { secret: string; now: () => Date }) {
  const keyFor = (purpose: string) => createSecretKey(deriveKey(secret, purpose));
  const keys = {
    secondStep: keyFor('second-factor-challenge'),
    webauthn: keyFor('webauthn-challenge'),
    browsers: keyFor('known-browsers'),
  };
  const seconds = () => Math.floor(now().getTime() / 1000);

  const sign = (key: typeof keys.secondStep, audience: string, claims: object, lifetime: number) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt(seconds())
      .setExpirationTime(seconds() + lifetime)
      .sign(key);

  const read = async (
    key: typeof keys.secondStep,
    audience: string,
    token: string | undefined,
  ): Promise<Record<string, unknown> | null> => {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience,
        currentDate: now(),
        requiredClaims: ['exp', 'iat'],
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  };

  /** An account's mark in the known-browsers cookie: keyed, so it names no account to a reader. */
  const accountMark = (userId: string) =>
    createHmac('sha256', keys.browsers).update(userId).digest('base64url').slice(0, 22);

  return {
    issueSecondStep(challenge: SecondStepChallenge): Promise<string> {
      return sign(
        keys.secondStep,
        'second-step',
        { sub: challenge.userId, sep: challenge.sessionEpoch, pwc: challenge.passwordChangedAt },
        CHALLENGE_SECONDS,
      );
    },

    async readSecondStep(token: string | undefined): Promise<SecondStepChallenge | null> {
      const payload = await read(keys.secondStep, 'second-step', token);
      if (
        !payload ||
        typeof payload.sub !== 'string' ||
        !Number.isSafeInteger(payload.sep) ||
        typeof payload.pwc !== 'number'
      ) {
        return null;
      }
      return {
        userId: payload.sub,
        sessionEpoch: payload.sep as number,
        passwordChangedAt: payload.pwc,
      };
    },

    issueWebAuthn(challenge: WebAuthnChallenge): Promise<string> {
      return sign(
        keys.webauthn,
        'webauthn',
        { chl: challenge.challenge, pur: challenge.purpose, usr: challenge.userId },
        CHALLENGE_SECONDS,
      );
    },

    async readWebAuthn(token: string | undefined): Promise<WebAuthnChallenge | null> {
      const payload = await read(keys.webauthn, 'webauthn', token);
      if (
        !payload ||
        typeof payload.chl !== 'string' ||
        (payload.pur !== 'register' && payload.pur !== 'authenticate') ||
        !(payload.usr === null || typeof payload.usr === 'string')
      ) {
        return null;
      }
      return { challenge: payload.chl, purpose: payload.pur, userId: payload.usr };
    },

    /**
     * Whether the browser that sent `token` has signed in to this account before, and the value
     * to set so that it counts as having done so from now on.
     */
    async rememberBrowser(
      token: string | undefined,
      userId: string,
    ): Promise<{ known: boolean; token: string }> {
      const payload = await read(keys.browsers, 'known-browsers', token);
      const marks = Array.isArray(payload?.acc)
        ? payload.acc.filter((mark): mark is string => typeof mark === 'string')
        : [];
      const mark = accountMark(userId);
      const known = marks.includes(mark);
      const kept = [...marks.filter((other) => other !== mark), mark].slice(-KNOWN_ACCOUNTS_KEPT);
      return {
        known,
        token: await sign(keys.browsers, 'known-browsers', { acc: kept }, KNOWN_BROWSER_SECONDS),
      };
    },
  };
}

export type ChallengeTokens = ReturnType<typeof createChallengeTokens>;
