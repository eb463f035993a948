import { z } from 'zod';
import { signedIn } from '../../contracts/accounts';
import {
  passkeyRegistered,
  recoveryCodesAnswer,
  secondFactorRequired,
  secondFactorStatus,
  totpSetup,
} from '../../contracts/second-factor';
import { ApiError, refusalOf, UnexpectedAnswerError } from '../api/client';

/**
 * The second factor's requests (docs/decisions/0110-second-factor.md, 0111-passkeys.md): each
 * answer parsed with the route's own schema from src/contracts, a refusal an ApiError with the
 * service's `error` and `issues`. The passkey prompts go through SimpleWebAuthn's browser half,
 * loaded when a prompt is first needed.
 */

const nothing = z.null();
const ceremonyOptions = z.record(z.string(), z.unknown());

async function send<S extends z.ZodType>(
  schema: S,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<z.infer<S>> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const payload: unknown = text === '' ? null : JSON.parse(text);
  if (!response.ok) throw refusalOf(response.status, payload, path);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new UnexpectedAnswerError(path);
  return parsed.data;
}

/** A password sign-in: the session, or the second step it needs first. */
export const signInAnswer = z.union([signedIn, secondFactorRequired]);
export type SignInAnswer = z.infer<typeof signInAnswer>;

export function signInWithPassword(email: string, password: string): Promise<SignInAnswer> {
  return send(signInAnswer, 'POST', '/api/auth/signin', { email, password });
}

/** The second step with a code from the app, or a recovery code. */
export function verifyCode(code: string) {
  return send(signedIn, 'POST', '/api/auth/mfa/verify', { code });
}

/** A signed-in person confirms it is them, for an action that needs a recent second factor. */
export function confirmCode(code: string) {
  return send(nothing, 'POST', '/api/auth/mfa/confirm', { code });
}

export function secondFactorStatusOf() {
  return send(secondFactorStatus, 'GET', '/api/me/second-factor');
}

export function startTotp() {
  return send(totpSetup, 'POST', '/api/auth/mfa/totp');
}

export function confirmTotp(code: string) {
  return send(recoveryCodesAnswer, 'POST', '/api/auth/mfa/totp/confirm', { code });
}

export function removeTotp() {
  return send(nothing, 'DELETE', '/api/auth/mfa/totp');
}

export function newRecoveryCodes() {
  return send(recoveryCodesAnswer, 'POST', '/api/auth/mfa/recovery-codes');
}

export function removePasskey(id: string) {
  return send(nothing, 'DELETE', `/api/auth/passkeys/${encodeURIComponent(id)}`);
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The browser's prompt to make a passkey, then the service keeps it under `name`. */
export async function addPasskey(name: string) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await send(ceremonyOptions, 'POST', '/api/auth/passkeys/registration/options');
  const response = await startRegistration({
    optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  return send(passkeyRegistered, 'POST', '/api/auth/passkeys/registration', { name, response });
}

/**
 * The browser's prompt to use a passkey: the second step after a password, a signed-in person
 * confirming it is them, or (neither) a sign-in with the passkey alone. The service knows which.
 */
export async function promptForPasskey() {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const options = await send(ceremonyOptions, 'POST', '/api/auth/passkeys/authentication/options');
  const response = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  return send(signedIn, 'POST', '/api/auth/passkeys/authentication', { response });
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
