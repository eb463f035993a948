import { sql } from 'drizzle-orm';
import type { InjectOptions as InjectOptionsOrUrl } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHasher } from '../../src/server/modules/auth/passwords.rules.js';
import {
  DEVELOPMENT_ACCOUNTS,
  ensureDevelopmentAccounts,
} from '../../src/server/modules/auth/provisioning.service.js';
import { users } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { testAuditService } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_PASSWORD_HASH_COST } from '../helpers/config.js';
import { createUser, TEST_PASSWORD } from '../helpers/factories.js';

let t: TestApp;
let clock = Date.now();
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

type Injected = Awaited<ReturnType<TestApp['app']['inject']>>;
type InjectOptions = Exclude<InjectOptionsOrUrl, string>;
/** Each request from its own client address: this suite is not about rate limits. */
const inject = (options: InjectOptions) => {
  return t.app.inject({
    remoteAddress: uniqueClientAddress(),
    ...options,
  });
};
const sessionCookie = (response: Injected) =>
  response.cookies.find((cookie) => cookie.name === 'session');
const signIn = (email: string, password: string, url = '/api/auth/signin') =>
  inject({ method: 'POST', url, payload: { email, password } });
/** Sign-out as the browser sends it: the session cookie, from the service's own origin. */
const signOut = (cookie: string) =>
  inject({
    method: 'POST',
    url: '/api/auth/signout',
    cookies: { session: cookie },
    headers: { origin: 'https://pensions.example.ie' },
  });

async function setUser(id: string, values: Partial<typeof users.$inferInsert>) {
  await withActor(t.database, platformActor(), (tx) =>
    tx.update(users).set(values).where(sql`${users.id} = ${id}`),
  );
}

describe('sign-in (docs/api.md, "Signing in")', () => {
  it('answers 200 with the user and sets the session cookie: HttpOnly, SameSite=Lax, Path=/', async () => {
    const user = await createUser(t.database);
    for (const url of ['/api/auth/signin', '/api/auth/callback/credentials']) {
      const response = await signIn(user.email, TEST_PASSWORD, url);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: {
          id: user.id,
          email: user.email,
          role: 'BrokerAdmin',
          brokerId: user.brokerId,
          employerId: null,
        },
      });
      expect(sessionCookie(response)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(response.body).not.toContain(sessionCookie(response)?.value);
    }
  });

  it('accepts a form post and an e-mail address in any case', async () => {
    const user = await createUser(t.database, { email: 'Siobhan.Kelly@Broker.example.ie' });
    const response = await inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent('siobhan.kelly@broker.EXAMPLE.ie')}&password=${encodeURIComponent(TEST_PASSWORD)}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(user.id);
  });

  it('gives a wrong password, an unknown e-mail and a deactivated account the same answer', async () => {
    const active = await createUser(t.database);
    const deactivated = await createUser(t.database, { status: 'deactivated' });
    const passwordless = await createUser(t.database, { passwordHash: null });
    const answers = [
      await signIn(active.email, 'not the right password at all'),
      await signIn('nobody-here@example.ie', TEST_PASSWORD),
      await signIn(deactivated.email, TEST_PASSWORD),
      await signIn(passwordless.email, TEST_PASSWORD),
    ];
    for (const response of answers) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid email or password' });
      expect(sessionCookie(response)).toBeUndefined();
    }
  });

  it('logs each attempt as a security event with the user id where known, never the e-mail', async () => {
    const user = await createUser(t.database);
    await signIn(user.email, TEST_PASSWORD);
    await signIn(user.email, 'wrong password entirely');
    await signIn('stranger@example.ie', 'whatever password');
    const events = t.logs.entries().filter((line) => line.securityEvent);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ securityEvent: 'auth.signin_succeeded', userId: user.id }),
        expect.objectContaining({ securityEvent: 'auth.signin_failed', userId: user.id }),
        expect.objectContaining({ securityEvent: 'auth.signin_failed', userId: null }),
      ]),
    );
    const logged = t.logs.text();
    expect(logged).not.toContain(user.email);
    expect(logged).not.toContain('stranger@example.ie');
    expect(logged).not.toContain(TEST_PASSWORD);
  });
});

describe('sessions', () => {
  it('are readable at /api/auth/session by cookie or bearer, and null without one', async () => {
    const user = await createUser(t.database);
    const cookie = sessionCookie(await signIn(user.email, TEST_PASSWORD))?.value as string;
    const byCookie = await inject({ url: '/api/auth/session', cookies: { session: cookie } });
    expect(byCookie.json().user).toMatchObject({ id: user.id, email: user.email });
    const byBearer = await inject({
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${cookie}` },
    });
    expect(byBearer.json().user.id).toBe(user.id);
    expect((await inject({ url: '/api/auth/session' })).json()).toEqual({ user: null });
  });

  it('end for a user who is deactivated, changes password or changes role', async () => {
    for (const change of [
      { status: 'deactivated' as const },
      { passwordChangedAt: new Date(clock + 1000) },
      { role: 'BrokerUser' },
    ]) {
      const { user, token } = await t.signedInUser();
      expect(
        (await inject({ url: '/api/x', headers: { authorization: `Bearer ${token}` } })).statusCode,
      ).toBe(404);
      await setUser(user.id, change);
      const after = await inject({
        url: '/api/x',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(after.statusCode).toBe(401);
    }
  });

  it('are renewed on activity, but never beyond 8 hours from sign-in', async () => {
    const user = await createUser(t.database);
    const first = sessionCookie(await signIn(user.email, TEST_PASSWORD))?.value as string;
    clock += 20 * 60 * 1000;
    const renewed = sessionCookie(
      await inject({ url: '/api/auth/session', cookies: { session: first } }),
    );
    expect(renewed?.value).toBeDefined();
    expect(renewed?.value).not.toBe(first);
    clock += 20 * 60 * 1000; // 40 minutes after sign-in: the first token is past its idle timeout
    expect((await inject({ url: '/api/x', cookies: { session: first } })).statusCode).toBe(401);
    let current = renewed?.value as string;
    for (let hour = 0; hour < 8; hour += 1) {
      clock += 25 * 60 * 1000;
      const next = sessionCookie(
        await inject({ url: '/api/auth/session', cookies: { session: current } }),
      );
      if (next) current = next.value;
    }
    const late = await inject({ url: '/api/x', cookies: { session: current } });
    expect(late.statusCode).toBe(401);
  });

  it('end at sign-out: the cookie is cleared', async () => {
    const user = await createUser(t.database);
    const cookie = sessionCookie(await signIn(user.email, TEST_PASSWORD))?.value as string;
    const response = await signOut(cookie);
    expect(response.statusCode).toBe(204);
    const cleared = sessionCookie(response);
    expect(cleared?.value).toBe('');
    expect(cleared?.maxAge ?? 0).toBeLessThanOrEqual(0);
  });

  it('end at sign-out even when the session is due for renewal: no fresh token is handed out', async () => {
    const user = await createUser(t.database);
    const cookie = sessionCookie(await signIn(user.email, TEST_PASSWORD))?.value as string;
    clock += 20 * 60 * 1000;
    const response = await signOut(cookie);
    expect(response.statusCode).toBe(204);
    const sessionCookies = response.cookies.filter((entry) => entry.name === 'session');
    expect(sessionCookies).toHaveLength(1);
    expect(sessionCookies[0]?.value).toBe('');
  });
});

describe('cross-site requests (docs/decisions/0016-same-origin-check.md)', () => {
  it('refuse a cookie-authenticated state change from another origin, and allow it from ours', async () => {
    const { token } = await t.signedInUser();
    const post = (headers: Record<string, string>) =>
      inject({
        method: 'POST',
        url: '/api/auth/signout',
        cookies: { session: token },
        headers,
      });
    expect((await post({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({})).statusCode).toBe(403);
    expect((await post({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(204);
    expect((await post({ origin: 'https://pensions.example.ie' })).statusCode).toBe(204);
    expect(
      (await post({ origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' })).statusCode,
    ).toBe(204);
  });

  it('do not apply to bearer tokens, which browsers never attach by themselves', async () => {
    const { token } = await t.signedInUser();
    const response = await inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(204);
  });

  it('refuse a sign-in posted from another site', async () => {
    const user = await createUser(t.database);
    const response = await inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { origin: 'https://evil.example' },
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(sessionCookie(response)).toBeUndefined();
  });
});

describe('development accounts (docs/decisions/0017-development-accounts-and-the-first-superadmin.md)', () => {
  it('sign in under development and test', async () => {
    await ensureDevelopmentAccounts(
      t.database,
      testAuditService(),
      passwordHasher(TEST_PASSWORD_HASH_COST),
    );
    for (const account of DEVELOPMENT_ACCOUNTS) {
      expect((await signIn(account.email, account.password)).statusCode).toBe(200);
    }
  });

  for (const appEnv of ['staging', 'production']) {
    it(`fail exactly like an unknown account under ${appEnv}`, async () => {
      await ensureDevelopmentAccounts(
        t.database,
        testAuditService(),
        passwordHasher(TEST_PASSWORD_HASH_COST),
      );
      const strict = await buildTestApp({
        database: t.database,
        env: { APP_ENV: appEnv, TRUST_PROXY: '127.0.0.1' },
      });
      try {
        for (const account of DEVELOPMENT_ACCOUNTS) {
          const response = await strict.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            headers: { 'x-forwarded-proto': 'https' },
            remoteAddress: '127.0.0.1',
            payload: { email: account.email, password: account.password },
          });
          expect(response.statusCode).toBe(401);
          expect(response.json()).toEqual({ error: 'Invalid email or password' });
        }
      } finally {
        await strict.app.close();
      }
    });
  }
});
