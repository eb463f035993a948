import { z } from 'zod';
import {
  invitationLinkAnswer,
  invitationLinkBody,
  linkCheckBody,
  messageAnswer,
  resetLinkAnswer,
  sessionAnswer,
  signedIn,
} from '../accounts.js';
import { get, nothing, post, remove } from '../route-kit.js';
import {
  codeBody,
  passkeyRegistered,
  recoveryCodesAnswer,
  secondFactorRequired,
  secondFactorStatus,
  totpSetup,
} from '../second-factor.js';
import { defineManifest } from './manifest.js';

/** A password sign-in: the session, or the second step it needs first (docs/decisions/0110-second-factor.md). */
export const signInAnswer = z.union([signedIn, secondFactorRequired]);
export type SignInAnswer = z.infer<typeof signInAnswer>;

/** The options for the browser's passkey prompt, as SimpleWebAuthn writes them. */
export const passkeyOptions = z.record(z.string(), z.unknown());

/** The auth module's routes (src/contracts/manifests/manifest.ts). */
export const authManifest = defineManifest({
  name: 'auth',
  routes: {
    /** Open without a session (docs/api.md, "Signing in"): signing in and out, passwords. */
    auth: {
      signIn: post('/api/auth/signin', {
        answer: signInAnswer,
        example: { body: { email: 'aoife@example.ie', password: 'correct horse battery staple' } },
      }),
      /** The same sign-in at the address Auth.js clients post credentials to. */
      signInCallback: post('/api/auth/callback/credentials', {
        answer: signInAnswer,
        example: { body: { email: 'aoife@example.ie', password: 'correct horse battery staple' } },
      }),
      acceptInvitation: post('/api/auth/accept-invitation', {
        answer: signedIn,
        example: { body: { token: 'x'.repeat(43), password: 'a new long passphrase' } },
      }),
      /** Whether an invitation link still works, before its page asks for a password. */
      invitationLink: post('/api/auth/invitation-link', {
        body: invitationLinkBody,
        answer: invitationLinkAnswer,
        example: { body: { token: 'x'.repeat(43) } },
      }),
      changePassword: post('/api/auth/change-password', {
        answer: messageAnswer,
        example: {
          body: { currentPassword: 'the passphrase in use', newPassword: 'a new long passphrase' },
        },
      }),
      session: get('/api/auth/session', { answer: sessionAnswer }),
      signOut: post('/api/auth/signout', { answer: nothing }),
      forgotPassword: post('/api/auth/forgot-password', {
        answer: messageAnswer,
        example: { body: { email: 'aoife@example.ie' } },
      }),
      /** Whether a password-reset link still works, before its page asks for a password. */
      resetLink: post('/api/auth/reset-link', {
        body: linkCheckBody,
        answer: resetLinkAnswer,
        example: { body: { token: 'x'.repeat(43) } },
      }),
      resetPassword: post('/api/auth/reset-password', {
        answer: messageAnswer,
        example: { body: { token: 'x'.repeat(43), password: 'a new long passphrase' } },
      }),
    },
    /** A second factor (docs/decisions/0110-second-factor.md, 0111-passkeys.md). */
    secondFactor: {
      /** The second step of a sign-in, with a code from the app or a recovery code. */
      verify: post('/api/auth/mfa/verify', {
        body: codeBody,
        answer: signedIn,
        example: { body: { code: '123456' } },
      }),
      /** A signed-in person confirms it is them, for an action that needs a recent second factor. */
      confirm: post('/api/auth/mfa/confirm', {
        body: codeBody,
        answer: nothing,
        example: { body: { code: '123456' } },
      }),
      status: get('/api/me/second-factor', { answer: secondFactorStatus }),
      startTotp: post('/api/auth/mfa/totp', { answer: totpSetup }),
      confirmTotp: post('/api/auth/mfa/totp/confirm', {
        body: codeBody,
        answer: recoveryCodesAnswer,
        example: { body: { code: '123456' } },
      }),
      removeTotp: remove('/api/auth/mfa/totp'),
      newRecoveryCodes: post('/api/auth/mfa/recovery-codes', { answer: recoveryCodesAnswer }),
      /** An administrator resets the lost factors of an account. */
      resetOfUser: remove('/api/users/:id/second-factor'),
      passkeyRegistrationOptions: post('/api/auth/passkeys/registration/options', {
        answer: passkeyOptions,
      }),
      registerPasskey: post('/api/auth/passkeys/registration', {
        answer: passkeyRegistered,
        example: {
          body: {
            name: 'Work laptop',
            response: {
              id: 'AAAA',
              rawId: 'AAAA',
              type: 'public-key',
              clientExtensionResults: {},
              response: {
                clientDataJSON: 'AAAA',
                attestationObject: 'AAAA',
                transports: ['internal'],
              },
            },
          },
        },
      }),
      removePasskey: remove('/api/auth/passkeys/:id'),
      passkeyAuthenticationOptions: post('/api/auth/passkeys/authentication/options', {
        answer: passkeyOptions,
      }),
      passkeyAuthentication: post('/api/auth/passkeys/authentication', {
        answer: signedIn,
        example: {
          body: {
            response: {
              id: 'AAAA',
              rawId: 'AAAA',
              type: 'public-key',
              clientExtensionResults: {},
              response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
            },
          },
        },
      }),
    },
  },
});
