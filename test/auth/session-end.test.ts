import { eq, sql } from 'drizzle-orm';
import type { InjectOptions as InjectOptionsOrUrl } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { readOutbox, resetTokenIn } from '../helpers/mail.js';

/**
 * Sign-out, deactivation, reactivation, a role change and a password change each end every
 * earlier session of that user, at once, and no one else's
 * (docs/decisions/0036-session-epochs.md).
 */

const ORIGIN = 'https://pensions.example.ie';
const NEW_PASSWORD = 'a brand new passphrase for 2026';

let t: TestApp;
beforeAll(async () => {
  // The reset test reads its e-mail from the outbox: held, so the mail worker cannot clear it first.
  t = await buildTestApp({ env: HOLD_MAIL });
});
afterAll(() => t.close());

type InjectOptions = Exclude<InjectOptionsOrUrl, string>;
const inject = (options: InjectOptions) =>
  t.app.inject({ remoteAddress: uniqueClientAddress(), ...options });

/** A real sign-in: the token the service hands out, as its cookie carries it. */
async function signIn(email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password },
  });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((entry) => entry.name === 'session');
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie.value;
}

/** A protected read with this token as the browser sends it (cookie) or a script (bearer). */
const readWith = async (token: string, as: 'cookie' | 'bearer' = 'bearer') =>
  (
    await inject({
      url: '/api/auth/session',
      ...(as === 'cookie'
        ? { cookies: { session: token } }
        : { headers: { authorization: `Bearer ${token}` } }),
    })
  ).json().user as { id: string } | null;
const statusWith = async (token: string) =>
  (await inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

const signOut = (token: string) =>
  inject({
    method: 'POST',
    url: '/api/auth/signout',
    cookies: { session: token },
    headers: { origin: ORIGIN },
  });

const patchUser = (token: string, id: string, payload: object) =>
  inject({
    method: 'PATCH',
    url: `/api/users/${id}`,
    headers: { authorization: `Bearer ${token}` },
    payload,
  });

describe('sessions end for good', () => {
  it('a token presented after sign-out is refused (401) on the very next request, by cookie or bearer', async () => {
    const user = await createUser(t.database);
    const token = await signIn(user.email);
    expect(await statusWith(token)).toBe(200);
    expect((await signOut(token)).statusCode).toBe(204);
    expect(await statusWith(token)).toBe(401);
    expect(await readWith(token, 'cookie')).toBeNull();
    expect(await readWith(token, 'bearer')).toBeNull();
  });

  it('sign-out ends every earlier session of the user, not only the one presented, and a fresh sign-in works', async () => {
    const user = await createUser(t.database);
    const laptop = await signIn(user.email);
    const phone = await signIn(user.email);
    expect((await signOut(laptop)).statusCode).toBe(204);
    expect(await statusWith(phone)).toBe(401);
    const again = await signIn(user.email);
    expect(await statusWith(again)).toBe(200);
  });

  it("one user's sign-out or deactivation leaves another user's sessions untouched", async () => {
    const admin = await createUser(t.database);
    const colleague = await createUser(t.database, {
      role: 'BrokerUser',
      brokerId: admin.brokerId as string,
    });
    const bystander = await createUser(t.database, {
      role: 'BrokerUser',
      brokerId: admin.brokerId as string,
    });
    const adminToken = await signIn(admin.email);
    const bystanderToken = await signIn(bystander.email);
    await signIn(colleague.email);
    expect((await patchUser(adminToken, colleague.id, { status: 'deactivated' })).statusCode).toBe(
      200,
    );
    expect((await signOut(adminToken)).statusCode).toBe(204);
    expect(await statusWith(bystanderToken)).toBe(200);
  });

  it('a token from before a deactivation stays refused after the account is reactivated', async () => {
    const admin = await createUser(t.database);
    const user = await createUser(t.database, {
      role: 'BrokerUser',
      brokerId: admin.brokerId as string,
    });
    const old = await signIn(user.email);
    const adminToken = await signIn(admin.email);
    expect((await patchUser(adminToken, user.id, { status: 'deactivated' })).statusCode).toBe(200);
    expect(await statusWith(old)).toBe(401);
    expect((await patchUser(adminToken, user.id, { status: 'active' })).statusCode).toBe(200);
    expect(await statusWith(old)).toBe(401);
    expect(await statusWith(await signIn(user.email))).toBe(200);
  });

  it('renaming an account does not end its sessions', async () => {
    const admin = await createUser(t.database);
    const user = await createUser(t.database, {
      role: 'BrokerUser',
      brokerId: admin.brokerId as string,
    });
    const token = await signIn(user.email);
    const adminToken = await signIn(admin.email);
    expect((await patchUser(adminToken, user.id, { name: 'Aoife Byrne' })).statusCode).toBe(200);
    expect(await statusWith(token)).toBe(200);
  });

  it('a role changed and changed back does not bring earlier tokens back; a fresh sign-in works', async () => {
    const user = await createUser(t.database, { role: 'BrokerUser' });
    const old = await signIn(user.email);
    const setRole = (role: string) =>
      withActor(t.database, platformActor(), (tx) =>
        tx.update(users).set({ role }).where(eq(users.id, user.id)),
      );
    await setRole('BrokerAdmin');
    await setRole('BrokerUser');
    expect(await statusWith(old)).toBe(401);
    expect(await statusWith(await signIn(user.email))).toBe(200);
  });

  it('a password reset ends every earlier session; the new password signs in', async () => {
    const user = await createUser(t.database);
    const old = await signIn(user.email);
    const forgot = await inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(200);
    const message = (await readOutbox(t.database, t.config))
      .filter((row) => row.kind === 'password_reset' && row.message?.to === user.email)
      .at(-1)?.message;
    const reset = await inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetTokenIn(message?.text ?? ''), password: NEW_PASSWORD },
    });
    expect(reset.statusCode).toBe(200);
    expect(await statusWith(old)).toBe(401);
    expect(await statusWith(await signIn(user.email, NEW_PASSWORD))).toBe(200);
  });

  it('an update that lowers the session epoch cannot bring ended tokens back', async () => {
    const user = await createUser(t.database);
    const old = await signIn(user.email);
    expect((await signOut(old)).statusCode).toBe(204);
    await withActor(t.database, platformActor(), (tx) =>
      tx.update(users).set({ sessionEpoch: sql`0` }).where(eq(users.id, user.id)),
    );
    expect(await statusWith(old)).toBe(401);
  });
});

describe('the session cookie (`__Host-` outside development)', () => {
  it('is `__Host-session` (Secure, Path=/, no Domain) under staging, and only that name opens a session', async () => {
    const user = await createUser(t.database);
    const strict = await buildTestApp({
      database: t.database,
      env: { APP_ENV: 'staging', TRUST_PROXY: '127.0.0.1' },
    });
    try {
      const overHttps = (options: InjectOptions) =>
        strict.app.inject({
          remoteAddress: '127.0.0.1',
          ...options,
          headers: { 'x-forwarded-proto': 'https', ...options.headers },
        });
      const signedIn = await overHttps({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expect(signedIn.statusCode).toBe(200);
      // Beside the session, the browser is remembered for the new-browser notice
      // (docs/decisions/0110-second-factor.md), under the same prefix.
      expect(signedIn.cookies.map((cookie) => cookie.name)).toEqual([
        '__Host-session',
        '__Host-known-browser',
      ]);
      const cookie = signedIn.cookies[0];
      expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
      expect(cookie?.domain).toBeUndefined();
      const token = cookie?.value as string;
      const withCookie = async (name: string) =>
        (await overHttps({ url: '/api/me', cookies: { [name]: token } })).statusCode;
      expect(await withCookie('__Host-session')).toBe(200);
      expect(await withCookie('session')).toBe(401);
      const signedOut = await overHttps({
        method: 'POST',
        url: '/api/auth/signout',
        cookies: { '__Host-session': token },
        headers: { origin: ORIGIN },
      });
      expect(signedOut.statusCode).toBe(204);
      expect(signedOut.cookies).toMatchObject([
        { name: '__Host-session', value: '', secure: true },
      ]);
    } finally {
      await strict.app.close();
    }
  });

  it('keeps the plain name, without Secure, under development and test on loopback HTTP', async () => {
    const user = await createUser(t.database);
    const response = await inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(response.cookies.map((cookie) => cookie.name)).toEqual(['session', 'known-browser']);
    expect(response.cookies.map((cookie) => Boolean(cookie.secure))).toEqual([false, false]);
  });
});
