import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkCheckBody, messageAnswer, resetLinkAnswer } from '../../../contracts/accounts.js';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { newPassword } from '../../../contracts/passwords.js';
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, text } from '../../../contracts/text.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { logSecurityEvent } from '../../platform/http/security-events.js';
import { sendTooManyRequests } from '../../platform/http/too-many-requests.js';
import { requestOrigin } from '../../platform/tenancy/request-context.js';
import type { PasswordResetService } from './password-reset.service.js';
import { passwordPolicyRefusal } from './passwords.rules.js';

/**
 * Every forgot-password answer takes at least this long, whether or not an e-mail was queued, so
 * the time of the answer does not tell a known address from an unknown one.
 */
export const FORGOT_PASSWORD_MIN_MS = 250;

export const FORGOT_PASSWORD_ANSWER = {
  message:
    'If an account exists for that e-mail address, a link to reset its password is on its way. Check your inbox.',
} as const;
export const PASSWORD_RESET_ANSWER = {
  message: 'Your password has been reset. Sign in with your new password.',
} as const;
export const INVALID_RESET_TOKEN = { error: 'Invalid or expired reset token' } as const;

const forgotPasswordBody = z.object({
  email: text({ max: EMAIL_MAX_LENGTH })
    .min(3)
    .regex(/^[^\s@]+@[^\s@]+$/, EMAIL_MESSAGE),
});

const resetPasswordBody = z.object({
  token: text({ max: 256, trim: false }).min(1),
  password: newPassword,
});

export interface PasswordResetRoutesOptions {
  passwordReset: PasswordResetService;
  pause: (ms: number) => Promise<void>;
}

/** docs/api.md, "E-mail and passwords"; docs/decisions/0020-password-reset.md. */
export const passwordResetRoutes: FastifyPluginAsyncZod<PasswordResetRoutesOptions> = async (
  app,
  { passwordReset, pause },
) => {
  app.route({
    ...routeOf(apiRoutes.auth.forgotPassword),
    schema: { tags: ['auth'], body: forgotPasswordBody, response: { 200: messageAnswer } },
    handler: async (request) => {
      const started = performance.now();
      const outcome = await passwordReset.requestReset(request.body.email, requestOrigin(request));
      logSecurityEvent(request.log, 'auth.password_reset_requested', {
        userId: outcome.userId,
        reason: outcome.sent ? undefined : outcome.reason,
      });
      await pause(Math.max(0, FORGOT_PASSWORD_MIN_MS - (performance.now() - started)));
      return FORGOT_PASSWORD_ANSWER;
    },
  });

  // Whether a reset link still works, before its page asks for a password. Under /api/auth/, so
  // the per-address limit of authentication routes counts it, as it does the invitation link's
  // check; it is not one of the link's three attempts, and it changes nothing.
  app.route({
    ...routeOf(apiRoutes.auth.resetLink),
    schema: {
      tags: ['auth'],
      summary:
        'Whether a password-reset link can still set a password. One answer for a used, expired, replaced or unknown link. The token travels in the body, never in the address.',
      body: linkCheckBody,
      response: { 200: resetLinkAnswer, 429: errorBody },
    },
    handler: async (request) => ({ usable: await passwordReset.linkUsable(request.body.token) }),
  });

  app.route({
    ...routeOf(apiRoutes.auth.resetPassword),
    schema: {
      tags: ['auth'],
      body: resetPasswordBody,
      response: { 200: messageAnswer, 400: errorBody, 429: errorBody },
    },
    handler: async (request, reply) => {
      const outcome = await passwordReset.resetPassword(
        request.body.token,
        request.body.password,
        requestOrigin(request),
      );
      if (outcome.ok) {
        logSecurityEvent(request.log, 'auth.password_reset_succeeded', { userId: outcome.userId });
        return PASSWORD_RESET_ANSWER;
      }
      logSecurityEvent(request.log, 'auth.password_reset_failed', {
        userId: outcome.userId,
        reason: outcome.reason,
      });
      switch (outcome.reason) {
        case 'too_many_attempts':
          return sendTooManyRequests(reply, outcome.retryAfterMs);
        case 'weak_password':
          throw passwordPolicyRefusal('password', outcome.problem);
        case 'invalid_token':
          return reply.code(400).send(INVALID_RESET_TOKEN);
      }
    },
  });
};
