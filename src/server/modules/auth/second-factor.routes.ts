import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../../../contracts/accounts.js';
import { apiRoutes, passkeyOptions } from '../../../contracts/api-routes.js';
import {
  codeBody,
  INVALID_CODE,
  passkeyName,
  passkeyRegistered,
  recoveryCodesAnswer,
  secondFactorStatus,
  totpSetup,
} from '../../../contracts/second-factor.js';
import { idText } from '../../../contracts/text.js';
import { ValidationError } from '../../platform/errors.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { logSecurityEvent } from '../../platform/http/security-events.js';
import { sendTooManyRequests } from '../../platform/http/too-many-requests.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { AuthService } from './auth.service.js';
import { PasskeyRefusedError, type PasskeysService } from './passkeys.service.js';
import type { CodeOutcome, SecondFactorService } from './second-factor.service.js';
import type { SignIns } from './sign-ins.service.js';

/**
 * The second factor's routes (docs/decisions/0110-second-factor.md,
 * docs/decisions/0111-passkeys.md). The second step of a sign-in and a sign-in with a passkey are
 * under /api/auth/ and need no session; the routes that change one's own factors are there too but
 * refuse anyone not signed in, as change-password does.
 */

const INVALID_CODE_BODY = { error: INVALID_CODE } as const;
export const PASSKEY_REFUSED = { error: 'That passkey was not accepted' } as const;

const requireSession: onRequestHookHandler = (request, reply, done) => {
  if (request.session === null) {
    reply.code(401).send({ error: 'Unauthorized' });
    return;
  }
  done();
};

/** A browser's WebAuthn answer as JSON; SimpleWebAuthn checks its contents. */
const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');
const transport = z
  .string()
  .max(32)
  .regex(/^[a-z-]+$/, 'Must be a transport name');
const registrationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(transport).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
});
const authenticationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});

export interface SecondFactorRoutesOptions {
  auth: AuthService;
  secondFactor: SecondFactorService;
  passkeys: PasskeysService;
  signIns: SignIns;
  now: () => Date;
}

export const secondFactorRoutes: FastifyPluginAsyncZod<SecondFactorRoutesOptions> = async (
  app,
  { auth, secondFactor, passkeys, signIns, now },
) => {
  const tags = ['auth'];
  const seconds = () => Math.floor(now().getTime() / 1000);

  /** The signed-in person's session again, now with a second factor confirmed at `at`. */
  const renewSession = async (request: FastifyRequest, reply: FastifyReply, at: number | null) => {
    const session = request.session;
    if (!session) return false;
    const renewed = await auth.sessionFor(session.userId, at, session.authTime);
    if (!renewed) return false;
    signIns.setSession(reply, renewed.token);
    return true;
  };

  /**
   * After a change that ended every session of the account (a factor added or removed), the
   * person who made it keeps a session: with a factor just proved, from now; otherwise with the
   * time their session had.
   */
  const keepSignedIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    proved: boolean,
  ): Promise<boolean> => {
    const at = proved ? seconds() : (request.session?.secondFactorAt ?? null);
    if (await renewSession(request, reply, at)) return true;
    signIns.clearSession(reply);
    return false;
  };

  const refuseCode = (reply: FastifyReply, outcome: Exclude<CodeOutcome, { ok: true }>) =>
    outcome.reason === 'too_many_attempts'
      ? sendTooManyRequests(reply, outcome.retryAfterMs)
      : reply.code(401).send(INVALID_CODE_BODY);

  // The second step of a sign-in: a code from the authenticator app, or a recovery code.
  app.route({
    ...routeOf(apiRoutes.secondFactor.verify),
    schema: {
      tags,
      summary:
        'The second step of a sign-in: a code from the authenticator app or a recovery code. Issues the session.',
      body: codeBody,
      response: { 200: signedIn, 400: errorBody, 401: errorBody, 429: errorBody },
    },
    handler: async (request, reply) => {
      const challenge = await signIns.readSecondStep(request);
      const user = challenge ? await auth.secondStepUser(challenge) : null;
      if (!user) {
        logSecurityEvent(request.log, 'auth.second_step_failed', {
          userId: challenge?.userId ?? null,
          reason: 'no_challenge',
        });
        return reply.code(401).send(INVALID_CODE_BODY);
      }
      const outcome = await secondFactor.verifyForSignIn(user.id, request.body.code);
      if (!outcome.ok) {
        logSecurityEvent(request.log, 'auth.second_step_failed', {
          userId: user.id,
          reason: outcome.reason,
        });
        return refuseCode(reply, outcome);
      }
      const session = await auth.sessionFor(user.id, seconds());
      if (!session) return reply.code(401).send(INVALID_CODE_BODY);
      logSecurityEvent(request.log, 'auth.signin_succeeded', {
        userId: user.id,
        reason: outcome.method,
      });
      await signIns.signedIn(request, reply, session.user, session.token);
      return { user: session.user };
    },
  });

  // A signed-in person confirms it is them, for an action that needs a recent second factor.
  app.route({
    ...routeOf(apiRoutes.secondFactor.confirm),
    onRequest: requireSession,
    config: { action: 'account.second_factor.confirm' },
    schema: {
      tags,
      summary:
        'Confirm your second factor again with a code, for an action that needs one confirmed in the last 5 minutes.',
      body: codeBody,
      response: { 204: noContent, 400: errorBody, 401: errorBody, 429: errorBody },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const outcome = await secondFactor.confirm(actor, request.body.code);
      if (!outcome.ok) {
        logSecurityEvent(request.log, 'auth.second_factor_confirm_failed', {
          userId: actor.userId,
          reason: outcome.reason,
        });
        if (outcome.reason === 'too_many_attempts') {
          return sendTooManyRequests(reply, outcome.retryAfterMs);
        }
        // A 400 under the field: this session is fine, only the code typed is wrong.
        throw new ValidationError([{ path: 'code', code: 'invalid_code', message: INVALID_CODE }]);
      }
      if (!(await renewSession(request, reply, seconds()))) {
        return reply.code(401).send({ error: 'Unauthorized' });
      }
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.status),
    config: { action: 'account.second_factor.read' },
    schema: {
      tags: ['users'],
      summary:
        'Your second factors: the authenticator app, your passkeys, how many recovery codes are left, and whether your role must have one.',
      response: { 200: secondFactorStatus, 403: errorBody },
    },
    handler: async (request) => secondFactor.status(actorOf(request)),
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.startTotp),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary:
        'Start setting up an authenticator app: the secret as an otpauth link (for the QR code) and as text. It counts once confirmed with a code.',
      response: { 200: totpSetup, 401: errorBody, 403: errorBody },
    },
    handler: async (request, reply) => {
      const setup = await secondFactor.startTotp(actorOf(request));
      return reply.header('cache-control', 'no-store').send(setup);
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.confirmTotp),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary:
        'Confirm the authenticator app with its current code. Answers ten recovery codes, shown this once; every other session of the account ends.',
      body: codeBody,
      response: {
        200: recoveryCodesAnswer,
        400: errorBody,
        401: errorBody,
        403: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const outcome = await secondFactor.confirmTotp(actor, request.body.code);
      if (!outcome.ok) return sendTooManyRequests(reply, outcome.retryAfterMs);
      logSecurityEvent(request.log, 'auth.second_factor_added', { userId: actor.userId });
      await keepSignedIn(request, reply, true);
      return reply
        .header('cache-control', 'no-store')
        .send({ recoveryCodes: outcome.recoveryCodes });
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.removeTotp),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary:
        'Remove the authenticator app. Every other session of the account ends; the recovery codes go with the last factor.',
      response: { 204: noContent, 400: errorBody, 401: errorBody, 403: errorBody },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      await secondFactor.removeTotp(actor);
      logSecurityEvent(request.log, 'auth.second_factor_removed', { userId: actor.userId });
      await keepSignedIn(request, reply, false);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.newRecoveryCodes),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary: 'Ten new recovery codes, shown this once; the earlier ones stop working.',
      response: { 200: recoveryCodesAnswer, 400: errorBody, 401: errorBody, 403: errorBody },
    },
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send({ recoveryCodes: await secondFactor.newRecoveryCodes(actorOf(request)) }),
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.resetOfUser),
    config: { action: 'user.second_factor.reset' },
    schema: {
      tags: ['users'],
      summary:
        'Remove the second factors of an account whose holder has lost them. Every session of the account ends and its holder is e-mailed; they set one up again at their next sign-in.',
      params: z.object({ id: idText }),
      response: { 204: noContent, 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request, reply) => {
      await secondFactor.reset(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  // Passkeys (docs/decisions/0111-passkeys.md).
  app.route({
    ...routeOf(apiRoutes.secondFactor.passkeyRegistrationOptions),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary: 'Start adding a passkey: the options for the browser’s prompt.',
      response: { 200: passkeyOptions, 401: errorBody, 403: errorBody },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const options = await passkeys.registrationOptions(actor);
      await signIns.startWebAuthn(reply, {
        challenge: options.challenge,
        purpose: 'register',
        userId: actor.userId,
      });
      return reply.header('cache-control', 'no-store').send({ ...options });
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.registerPasskey),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary:
        'Add the passkey the browser made, under a name. As the first factor it brings ten recovery codes, shown this once; every other session of the account ends.',
      body: z.object({ name: passkeyName, response: registrationResponse }),
      response: { 201: passkeyRegistered, 400: errorBody, 401: errorBody, 403: errorBody },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const ceremony = await signIns.takeWebAuthn(request, reply);
      if (ceremony?.purpose !== 'register' || ceremony.userId !== actor.userId) {
        return reply.code(400).send(PASSKEY_REFUSED);
      }
      let outcome: Awaited<ReturnType<PasskeysService['register']>>;
      try {
        outcome = await passkeys.register(
          actor,
          {
            name: request.body.name,
            response: request.body.response as RegistrationResponseJSON,
          },
          ceremony.challenge,
        );
      } catch (error) {
        if (error instanceof PasskeyRefusedError) return reply.code(400).send(PASSKEY_REFUSED);
        throw error;
      }
      logSecurityEvent(request.log, 'auth.second_factor_added', {
        userId: actor.userId,
        reason: 'passkey',
      });
      await keepSignedIn(request, reply, true);
      return reply.code(201).header('cache-control', 'no-store').send(outcome);
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.removePasskey),
    onRequest: requireSession,
    config: { action: 'account.second_factor.change' },
    schema: {
      tags,
      summary:
        'Remove one of your passkeys. Every other session of the account ends; the recovery codes go with the last factor.',
      params: z.object({ id: idText }),
      response: { 204: noContent, 401: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      await passkeys.remove(actor, request.params.id);
      logSecurityEvent(request.log, 'auth.second_factor_removed', {
        userId: actor.userId,
        reason: 'passkey',
      });
      await keepSignedIn(request, reply, false);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.passkeyAuthenticationOptions),
    schema: {
      tags,
      summary:
        'Start a passkey prompt: for the account whose password was just given, for the signed-in person confirming it is them, or (neither) for a sign-in with a passkey alone.',
      response: { 200: passkeyOptions },
    },
    handler: async (request, reply) => {
      const challenge = await signIns.readSecondStep(request);
      const userId = challenge?.userId ?? request.session?.userId ?? null;
      const options = await passkeys.authenticationOptions(userId);
      await signIns.startWebAuthn(reply, {
        challenge: options.challenge,
        purpose: 'authenticate',
        userId,
      });
      return reply.header('cache-control', 'no-store').send({ ...options });
    },
  });

  app.route({
    ...routeOf(apiRoutes.secondFactor.passkeyAuthentication),
    schema: {
      tags,
      summary:
        'Answer a passkey prompt: completes a sign-in (second step, or the passkey alone) with a session, or confirms a signed-in person.',
      body: z.object({ response: authenticationResponse }),
      response: { 200: signedIn, 401: errorBody, 429: errorBody },
    },
    handler: async (request, reply) => {
      const ceremony = await signIns.takeWebAuthn(request, reply);
      const response = request.body.response as AuthenticationResponseJSON;
      const refuse = (userId: string | null, reason: string) => {
        logSecurityEvent(request.log, 'auth.passkey_refused', { userId, reason });
        return reply.code(401).send(PASSKEY_REFUSED);
      };
      if (ceremony?.purpose !== 'authenticate') return refuse(null, 'no_challenge');
      try {
        const session = request.session;
        if (ceremony.userId !== null && session?.userId === ceremony.userId) {
          // A signed-in person confirming it is them.
          await passkeys.confirm(actorOf(request), response, ceremony.challenge);
          if (!(await renewSession(request, reply, seconds())))
            return refuse(session.userId, 'ended');
          return { user: auth.sessionUser(session) };
        }
        let userId: string;
        if (ceremony.userId !== null) {
          // The second step of a sign-in whose password was right.
          const challenge = await signIns.readSecondStep(request);
          const user = challenge ? await auth.secondStepUser(challenge) : null;
          if (!user || user.id !== ceremony.userId) return refuse(ceremony.userId, 'no_challenge');
          userId = await passkeys.signIn(response, ceremony.challenge, user.id);
        } else {
          userId = await passkeys.signIn(response, ceremony.challenge, null);
        }
        const signedInSession = await auth.sessionFor(userId, seconds());
        if (!signedInSession) return refuse(userId, 'unusable');
        logSecurityEvent(request.log, 'auth.signin_succeeded', { userId, reason: 'passkey' });
        await signIns.signedIn(request, reply, signedInSession.user, signedInSession.token);
        return { user: signedInSession.user };
      } catch (error) {
        if (error instanceof PasskeyRefusedError) return refuse(ceremony.userId, 'not_verified');
        throw error;
      }
    },
  });
};
