import { apiRoutes, type SignInAnswer } from '../../contracts/api-routes';
import { ApiError, api } from '../api/client';

/**
 * The second factor's requests (docs/decisions/0110-second-factor.md, 0111-passkeys.md), each to
 * its route of the table (src/contracts/api-routes.ts): the answer parsed with the route's own
 * schema, a refusal an ApiError with the service's `error` and `issues`. The passkey prompts go
 * through SimpleWebAuthn's browser half, loaded when a prompt is first needed.
 */

export type { SignInAnswer };

export function signInWithPassword(email: string, password: string): Promise<SignInAnswer> {
  return api(apiRoutes.auth.signIn, { body: { email, password } });
}

/** The second step with a code from the app, or a recovery code. */
export function verifyCode(code: string) {
  return api(apiRoutes.secondFactor.verify, { body: { code } });
}

/** A signed-in person confirms it is them, for an action that needs a recent second factor. */
export function confirmCode(code: string) {
  return api(apiRoutes.secondFactor.confirm, { body: { code } });
}

export function secondFactorStatusOf() {
  return api(apiRoutes.secondFactor.status);
}

export function startTotp() {
  return api(apiRoutes.secondFactor.startTotp);
}

export function confirmTotp(code: string) {
  return api(apiRoutes.secondFactor.confirmTotp, { body: { code } });
}

export function removeTotp() {
  return api(apiRoutes.secondFactor.removeTotp);
}

export function newRecoveryCodes() {
  return api(apiRoutes.secondFactor.newRecoveryCodes);
}

export function removePasskey(id: string) {
  return api(apiRoutes.secondFactor.removePasskey, { params: { id } });
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The browser's prompt to make a passkey, then the service keeps it under `name`. */
export async function addPasskey(name: string) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await api(apiRoutes.secondFactor.passkeyRegistrationOptions);
  const response = await startRegistration({
    optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  return api(apiRoutes.secondFactor.registerPasskey, { body: { name, response } });
}

/**
 * The browser's prompt to use a passkey: the second step after a password, a signed-in person
 * confirming it is them, or (neither) a sign-in with the passkey alone. The service knows which.
 */
export async function promptForPasskey() {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const options = await api(apiRoutes.secondFactor.passkeyAuthenticationOptions);
  const response = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  return api(apiRoutes.secondFactor.passkeyAuthentication, { body: { response } });
}

/** What to tell the person when the browser's own prompt ended without a passkey. */
export function passkeyProblem(error: unknown): string {
  if (error instanceof ApiError) {
    return error.status === 429
      ? 'Too many attempts. Please wait a minute and try again.'
      : error.error;
  }
  // The browser's prompt was closed, timed out, or no passkey was chosen.
  return 'No passkey was used. Try again, or use a code instead.';
}
