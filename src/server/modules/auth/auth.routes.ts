import type { FastifyReply, onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  invitationLinkAnswer,
  invitationLinkBody,
  messageAnswer,
  sessionAnswer,
  signedIn,
} from '../../../contracts/accounts.js';
import { apiRoutes, signInAnswer } from '../../../contracts/api-routes.js';
import { newPassword } from '../../../contracts/passwords.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { EMAIL_MAX_LENGTH, text } from '../../../contracts/text.js';
import { ValidationError } from '../../platform/errors.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { logSecurityEvent } from '../../platform/http/security-events.js';
import { sendTooManyRequests } from '../../platform/http/too-many-requests.js';
import { actorOf, requestOrigin } from '../../platform/tenancy/request-context.js';
import { SESSION_ABSOLUTE_SECONDS } from '../../platform/tenancy/session-token.js';
import type { AccountThrottle } from './account-throttle.service.js';
import type { AuthService } from './auth.service.js';
import type { InvitationsService } from './invitations.service.js';
import type { PasswordChangeService } from './password-change.service.js';
import { PASSWORD_MAX_LENGTH, passwordPolicyRefusal } from './passwords.rules.js';
import { sessionCookieName } from './session-cookie.rules.js';
import type { SignIns } from './sign-ins.service.js';

/** A cookie session is renewed at most this often, so the idle timeout restarts on activity. */
const RENEW_AFTER_SECONDS = 60;

const credentials = z.object({
  // No control characters: the address is looked up in the database (docs/decisions/0035-control-characters-and-database-errors.md).
  email: text({ max: EMAIL_MAX_LENGTH }).min(1),
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
});

const INVALID_CREDENTIALS = { error: 'Invalid email or password' } as const;
export const INVALID_INVITATION = {
  error:
    'This invitation link is not valid or has expired. Ask whoever invited you to send a new one.',
} as const;
export const ADDRESS_HAS_ACCOUNT = {
  error: 'This e-mail address already has an account. Sign in with it instead.',
} as const;

export const PASSWORD_CHANGED_ANSWER = {
  message:
    'Your password has been changed. You are still signed in here; everywhere else you were signed in has been signed out.',
} as const;
export const WRONG_CURRENT_PASSWORD = FIELD_MESSAGES.wrongCurrentPassword;
export const SAME_PASSWORD = FIELD_MESSAGES.samePassword;

const changePasswordBody = z.object({
  currentPassword: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
  newPassword,
});

/**
 * Paths under /api/auth/ pass the gate without a session (api-paths.ts), since signing in needs
 * none. A route there that acts for the signed-in person refuses everyone else itself, before
 * its body is read, with the gate's own answer.
 */
const requireSession: onRequestHookHandler = (request, reply, done) => {
  if (request.session === null) {
    reply.code(401).send({ error: 'Unauthorized' });
    return;
  }
  done();
};

const acceptInvitationBody = z.object({
  token: text({ max: 256, trim: false }).min(1),
  password: newPassword,
});

export interface AuthRoutesOptions {
  auth: AuthService;
  invitations: InvitationsService;
  passwordChange: PasswordChangeService;
  throttle: AccountThrottle;
  secureCookies: boolean;
  now: () => Date;
  /** Completes sign-ins: cookies, the second step, the new-browser notice (sign-ins.service.ts). */
  signIns: SignIns;
  /**
   * Whether a session may do nothing but set up a second factor, its role needing one it has
   * not got (docs/decisions/0112-second-factor-required-roles.md).
   */
  mustSetUpSecondFactor: (session: { role: string; secondFactor: string }) => boolean;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  {
    auth,
    invitations,
    passwordChange,
    throttle,
    secureCookies,
    now,
    signIns,
    mustSetUpSecondFactor,
  },
) => {
  const cookieName = sessionCookieName(secureCookies);
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secureCookies,
  } as const;
  const setSessionCookie = (reply: FastifyReply, token: string) => {
    reply.setCookie(cookieName, token, { ...cookieOptions, maxAge: SESSION_ABSOLUTE_SECONDS });
  };

  // Sliding idle timeout: an active cookie session gets a fresh token now and then. It is set
  // before the handler runs, so a route that sets or clears the cookie itself has the last word.
  app.addHook('preHandler', async (request, reply) => {
    const session = request.session;
    if (!session || request.sessionSource !== 'cookie') return;
    if (now().getTime() / 1000 - session.issuedAt >= RENEW_AFTER_SECONDS) {
      setSessionCookie(reply, await auth.renew(session));
    }
  });

  const signInSchema = {
    tags: ['auth'],
    body: credentials,
    response: { 200: signInAnswer, 401: errorBody },
  };
  for (const route of [apiRoutes.auth.signInCallback, apiRoutes.auth.signIn]) {
    app.route({
      ...routeOf(route),
      schema: signInSchema,
      handler: async (request, reply) => {
        await throttle.beforeAttempt(request.body.email);
        const result = await auth.signIn(request.body.email, request.body.password);
        if (!result.ok) {
          logSecurityEvent(request.log, 'auth.signin_failed', { userId: result.userId });
          return reply.code(401).send(INVALID_CREDENTIALS);
        }
        // The account has a second factor: no session yet, only the second step
        // (docs/decisions/0110-second-factor.md).
        if ('secondStep' in result) {
          const { methods, ...challenge } = result.secondStep;
          logSecurityEvent(request.log, 'auth.signin_second_step', { userId: challenge.userId });
          return signIns.secondStep(reply, challenge, methods);
        }
        logSecurityEvent(request.log, 'auth.signin_succeeded', { userId: result.user.id });
        await signIns.signedIn(request, reply, result.user, result.token);
        return mustSetUpSecondFactor({ role: result.user.role, secondFactor: 'none' })
          ? { user: result.user, secondFactorSetupRequired: true }
          : { user: result.user };
      },
    });
  }

  // The invited person chooses their password and is signed in
  // (docs/decisions/0044-invitations.md). Under /api/auth/, so it counts as an authentication
  // attempt, and each link allows 3 tries (docs/api.md, "Rate limits").
  app.route({
    ...routeOf(apiRoutes.auth.acceptInvitation),
    schema: {
      tags: ['auth'],
      body: acceptInvitationBody,
      response: {
        200: signedIn,
        400: errorBody,
        409: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) => {
      const outcome = await invitations.accept(
        request.body.token,
        request.body.password,
        requestOrigin(request),
      );
      if (!outcome.ok) {
        logSecurityEvent(request.log, 'auth.invitation_failed', {
          userId: outcome.userId,
          reason: outcome.reason,
        });
        switch (outcome.reason) {
          case 'too_many_attempts':
            return sendTooManyRequests(reply, outcome.retryAfterMs);
          case 'weak_password':
            throw passwordPolicyRefusal('password', outcome.problem);
          case 'address_taken':
            return reply.code(409).send(ADDRESS_HAS_ACCOUNT);
          case 'invalid_token':
            return reply.code(400).send(INVALID_INVITATION);
        }
      }
      logSecurityEvent(request.log, 'auth.invitation_accepted', { userId: outcome.userId });
      const session = await auth.sessionFor(outcome.userId);
      // Set up a moment ago; only a deactivation in between leaves it unusable.
      if (!session) return reply.code(400).send(INVALID_INVITATION);
      setSessionCookie(reply, session.token);
      return { user: session.user };
    },
  });

  // Whether an invitation link still works, before its page asks for a password
  // (docs/decisions/0125-invitation-link-checked-first.md). Under /api/auth/, so the per-address
  // limit of authentication routes counts it; it changes nothing. An open link also says what it
  // is to (firm, employer, role: 0044); a closed one, its state alone.
  app.route({
    ...routeOf(apiRoutes.auth.invitationLink),
    schema: {
      tags: ['auth'],
      summary:
        'Whether an invitation link can still set a password: open, used, expired or not valid; an open one also names the inviting firm, the employer of an employer’s account, and the role. The token travels in the body, never in the address.',
      body: invitationLinkBody,
      response: { 200: invitationLinkAnswer, 429: errorBody },
    },
    handler: (request) => invitations.linkState(request.body.token),
  });

  // Any signed-in person changes their own password
  // (docs/decisions/0049-changing-ones-own-password.md). Under /api/auth/, so it counts as an
  // authentication attempt, as a check of a password should.
  app.route({
    ...routeOf(apiRoutes.auth.changePassword),
    onRequest: requireSession,
    config: { action: 'account.password.change' },
    schema: {
      tags: ['auth'],
      summary:
        'Change your own password, giving the current one: your other sessions end, and this one continues with a new session cookie.',
      body: changePasswordBody,
      response: {
        200: messageAnswer,
        400: errorBody,
        401: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const outcome = await passwordChange.changePassword(actor, request.body);
      if (!outcome.ok) {
        logSecurityEvent(request.log, 'auth.password_change_failed', {
          userId: actor.userId,
          reason: outcome.reason,
        });
        switch (outcome.reason) {
          case 'too_many_attempts':
            return sendTooManyRequests(reply, outcome.retryAfterMs);
          case 'weak_password':
            throw passwordPolicyRefusal('newPassword', outcome.problem);
          case 'same_password':
            throw new ValidationError([
              { path: 'newPassword', code: 'same_password', message: SAME_PASSWORD },
            ]);
          case 'wrong_password':
            // A 400 under the field, not a 401: everywhere in this API a 401 means "not signed
            // in", and this session is fine; only what was typed in the field is wrong.
            throw new ValidationError([
              { path: 'currentPassword', code: 'wrong_password', message: WRONG_CURRENT_PASSWORD },
            ]);
        }
      }
      logSecurityEvent(request.log, 'auth.password_changed', { userId: actor.userId });
      // Every earlier token of the account has just ended, this request's included. The person
      // proved their password just now, as at a sign-in, so they get a new session here, issued
      // under the new epoch, keeping when its second factor was last confirmed. Only a
      // deactivation in between leaves none to give.
      const session = await auth.sessionFor(
        outcome.userId,
        request.session?.secondFactorAt ?? null,
      );
      if (!session) {
        reply.clearCookie(cookieName, cookieOptions);
        return reply.code(401).send({ error: 'Unauthorized' });
      }
      setSessionCookie(reply, session.token);
      return PASSWORD_CHANGED_ANSWER;
    },
  });

  app.route({
    ...routeOf(apiRoutes.auth.session),
    schema: { tags: ['auth'], response: { 200: sessionAnswer } },
    handler: async (request) => {
      const session = request.session;
      if (!session) return { user: null };
      return mustSetUpSecondFactor(session)
        ? { user: auth.sessionUser(session), secondFactorSetupRequired: true }
        : { user: auth.sessionUser(session) };
    },
  });

  app.route({
    ...routeOf(apiRoutes.auth.signOut),
    schema: { tags: ['auth'] },
    handler: async (request, reply) => {
      logSecurityEvent(request.log, 'auth.signed_out', { userId: request.session?.userId ?? null });
      if (request.session) await auth.endSessions(actorOf(request));
      reply.clearCookie(cookieName, cookieOptions);
      return reply.code(204).send();
    },
  });
};
