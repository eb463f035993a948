import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecondFactorMethod, SecondFactorRequired } from '../../../contracts/second-factor.js';
import type { Database } from '../../platform/db/database.js';
import {
  type Transaction,
  withPlatformRole,
  withTenantRole,
} from '../../platform/db/with-actor.js';
import { newBrowserSignInMessage } from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { SESSION_ABSOLUTE_SECONDS } from '../../platform/tenancy/session-token.js';
import { irishLocalTime } from '../audit/index.js';
import type { SessionUser } from './auth.service.js';
import {
  CHALLENGE_SECONDS,
  type ChallengeTokens,
  KNOWN_BROWSER_SECONDS,
  type SecondStepChallenge,
  type WebAuthnChallenge,
} from './challenge-tokens.service.js';
import { PASSWORD_CHANGED_NOTICE_VALID_MS } from './password-reset.service.js';
import { sessionCookieName } from './session-cookie.rules.js';

/**
 * The cookies a sign-in sets, in every way one completes (a password alone, a password and a
 * second factor, a passkey alone), and the notice of a sign-in from a browser the account has not
 * been used from (docs/decisions/0110-second-factor.md). Where cookies are Secure they carry the
 * `__Host-` prefix, as the session cookie does (session-cookie.rules.ts).
 */
export interface SignInsDeps {
  challenges: ChallengeTokens;
  database: Database;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  secureCookies: boolean;
  onEmailQueued: () => void;
}

/** The longest a browser's own description is quoted in the notice. */
const BROWSER_TEXT_MAX = 200;

export function createSignIns({
  challenges,
  database,
  outbox,
  now,
  publicBaseUrl,
  secureCookies,
  onEmailQueued,
}: SignInsDeps) {
  const prefix = secureCookies ? '__Host-' : '';
  const names = {
    session: sessionCookieName(secureCookies),
    secondStep: `${prefix}second-step`,
    webauthn: `${prefix}webauthn`,
    browser: `${prefix}known-browser`,
  };
  const base = { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookies } as const;
  const cookie = (request: FastifyRequest, name: string): string | undefined => {
    const header = request.headers.cookie;
    return header ? request.server.parseCookie(header)[name] : undefined;
  };
  const forgotPasswordUrl = new URL('/forgot-password', publicBaseUrl).toString();

  /** Tells the account's holder of a sign-in from a browser it had not been used from. */
  const noticeNewBrowser = async (request: FastifyRequest, user: SessionUser) => {
    const agent = request.headers['user-agent'];
    const browser = (typeof agent === 'string' && agent.trim() ? agent.trim() : 'unknown').slice(
      0,
      BROWSER_TEXT_MAX,
    );
    const at = now();
    const work = (tx: Transaction) =>
      outbox.enqueue(tx, {
        brokerId: user.brokerId,
        userId: user.id,
        kind: 'new_browser_signin',
        message: newBrowserSignInMessage(user.email, {
          browser,
          at: irishLocalTime(at),
          forgotPasswordUrl,
        }),
        discardAfter: new Date(at.getTime() + PASSWORD_CHANGED_NOTICE_VALID_MS),
      });
    // The service's own work for the account's tenant (or the platform), no person acting.
    await (user.brokerId === null
      ? withPlatformRole(database, work)
      : withTenantRole(database, user.brokerId, work));
    onEmailQueued();
  };

  return {
    names,

    setSession(reply: FastifyReply, token: string): void {
      reply.setCookie(names.session, token, { ...base, maxAge: SESSION_ABSOLUTE_SECONDS });
    },

    clearSession(reply: FastifyReply): void {
      reply.clearCookie(names.session, base);
    },

    /**
     * A sign-in has completed: the session cookie, the second step's cookie gone, and the notice
     * when this browser had not signed in to the account before.
     */
    async signedIn(
      request: FastifyRequest,
      reply: FastifyReply,
      user: SessionUser,
      token: string,
    ): Promise<void> {
      reply.setCookie(names.session, token, { ...base, maxAge: SESSION_ABSOLUTE_SECONDS });
      if (cookie(request, names.secondStep) !== undefined) {
        reply.clearCookie(names.secondStep, base);
      }
      const browser = await challenges.rememberBrowser(cookie(request, names.browser), user.id);
      reply.setCookie(names.browser, browser.token, { ...base, maxAge: KNOWN_BROWSER_SECONDS });
      if (!browser.known) await noticeNewBrowser(request, user);
    },

    /** The password was right and a second factor is needed: the challenge, and no session. */
    async secondStep(
      reply: FastifyReply,
      challenge: SecondStepChallenge,
      methods: SecondFactorMethod[],
    ): Promise<SecondFactorRequired> {
      reply.setCookie(names.secondStep, await challenges.issueSecondStep(challenge), {
        ...base,
        maxAge: CHALLENGE_SECONDS,
      });
      return { mfaRequired: true, methods };
    },

    readSecondStep(request: FastifyRequest): Promise<SecondStepChallenge | null> {
      return challenges.readSecondStep(cookie(request, names.secondStep));
    },

    clearSecondStep(reply: FastifyReply): void {
      reply.clearCookie(names.secondStep, base);
    },

    async startWebAuthn(reply: FastifyReply, challenge: WebAuthnChallenge): Promise<void> {
      reply.setCookie(names.webauthn, await challenges.issueWebAuthn(challenge), {
        ...base,
        maxAge: CHALLENGE_SECONDS,
      });
    },

    /** The WebAuthn ceremony under way, ended: its cookie is cleared whatever the outcome. */
    async takeWebAuthn(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<WebAuthnChallenge | null> {
      reply.clearCookie(names.webauthn, base);
      return challenges.readWebAuthn(cookie(request, names.webauthn));
    },
  };
}

export type SignIns = ReturnType<typeof createSignIns>;
