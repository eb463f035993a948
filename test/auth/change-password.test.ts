import { and, eq } from 'drizzle-orm';
import type { InjectOptions as InjectOptionsOrUrl, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ROLES } from '../../src/contracts/roles.js';
import {
  PASSWORD_CHANGED_ANSWER,
  SAME_PASSWORD,
  WRONG_CURRENT_PASSWORD,
} from '../../src/server/modules/auth/auth.routes.js';
import {
  CHANGE_PASSWORD_ATTEMPTS,
  CHANGE_PASSWORD_WINDOW_MS,
} from '../../src/server/modules/auth/password-change.service.js';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { verifyTestChains } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL, TEST_PASSWORD_HASH_COST } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createUser, TEST_PASSWORD, type UserRow } from '../helpers/factories.js';
import { readOutbox, resetTokenIn } from '../helpers/mail.js';

/**
 * Every signed-in person changes their own password by giving the current one
 * (docs/decisions/0049-changing-ones-own-password.md). The change ends every other session of the
 * account and keeps the one it was made in, through a fresh session cookie; it is audited and the
 * account's address is told.
 */

const ORIGIN = 'https://pensions.example.ie';
const NEW_PASSWORD = 'Ballybunion dunes at low tide 2026';
let t: TestApp;
let clock = Date.parse('2026-11-02T09:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock), env: HOLD_MAIL });
});
afterAll(() => t.close());

type InjectOptions = Exclude<InjectOptionsOrUrl, string>;
/** Each request from its own client address: the per-IP limits are tested on their own below. */
const inject = (options: InjectOptions) =>
  t.app.inject({ remoteAddress: uniqueClientAddress(), ...options });

const sessionCookieOf = (response: LightMyRequestResponse) =>
  response.cookies.find((entry) => entry.name === 'session');

/** A real sign-in through the form's endpoint: the token its cookie carries, or null on 401. */
async function signIn(email: string, password: string): Promise<string | null> {
  const response = await inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password },
  });
  if (response.statusCode === 401) return null;
  expect(response.statusCode).toBe(200);
  return sessionCookieOf(response)?.value ?? null;
}

async function signedIn(email: string, password = TEST_PASSWORD): Promise<string> {
  const token = await signIn(email, password);
  if (!token) throw new Error('sign-in refused');
  return token;
}

/** As a browser sends it: the session cookie, from the service's own origin. */
const changePassword = (token: string, payload: object, headers: Record<string, string> = {}) =>
  inject({
    method: 'POST',
    url: '/api/auth/change-password',
    cookies: { session: token },
    headers: { origin: ORIGIN, ...headers },
    payload,
  });

const change = (token: string, newPassword = NEW_PASSWORD, currentPassword = TEST_PASSWORD) =>
  changePassword(token, { currentPassword, newPassword });

/** A protected read with this token, as a script sends it. */
const statusWith = async (token: string) =>
  (await inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode;

const rowOf = async (userId: string) =>
  (await ownerOf(t.database).select().from(users).where(eq(users.id, userId)))[0] as UserRow;

const auditOf = (userId: string, action: string) =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, userId), eq(auditLog.action, action)));

const noticesTo = async (userId: string) =>
  (await readOutbox(t.database, t.config)).filter(
    (row) => row.userId === userId && row.kind === 'password_changed',
  );

describe('changing one’s own password', () => {
  it('takes the new password: the old one no longer signs in, the new one does', async () => {
    const user = await createUser(t.database, { role: 'Member' });
    const token = await signedIn(user.email);
    const response = await change(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(PASSWORD_CHANGED_ANSWER);
    expect(await signIn(user.email, TEST_PASSWORD)).toBeNull();
    expect(await signIn(user.email, NEW_PASSWORD)).not.toBeNull();
    const row = await rowOf(user.id);
    // bcrypt, at the cost the app is configured with (docs/decisions/0151-password-hash-cost-setting.md).
    expect(row.passwordHash?.slice(0, 7)).toBe(
      `$2b$${String(TEST_PASSWORD_HASH_COST).padStart(2, '0')}$`,
    );
    expect(row.passwordChangedAt.getTime()).toBe(clock);
  });

  it('ends every other session at once, and keeps the changing browser signed in with a new cookie', async () => {
    const user = await createUser(t.database, { role: 'EmployerUser' });
    const laptop = await signedIn(user.email);
    const phone = await signedIn(user.email);
    clock += 1_000;
    const response = await change(laptop);
    expect(response.statusCode).toBe(200);
    const fresh = sessionCookieOf(response);
    expect(fresh).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const renewed = fresh?.value as string;
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(laptop);
    // The phone, signed in before the change, is signed out; so is the laptop's old token,
    // which the browser no longer holds.
    expect(await statusWith(phone)).toBe(401);
    expect(await statusWith(laptop)).toBe(401);
    // The browser that changed it goes on working with the cookie it was given.
    expect(await statusWith(renewed)).toBe(200);
    const session = await inject({ url: '/api/auth/session', cookies: { session: renewed } });
    expect(session.json().user).toMatchObject({ id: user.id, role: 'EmployerUser' });
    expect((await rowOf(user.id)).sessionEpoch).toBeGreaterThan(user.sessionEpoch);
  });

  // Two password hashes and four sign-ins for each of six roles: on a busy 2-core CI machine this
  // passes 30 s.
  it('works for every role, through a bearer token too, the new token in Set-Cookie (README)', async () => {
    for (const role of ROLES) {
      const user = await createUser(t.database, { role });
      const token = await signedIn(user.email);
      const response = await inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { authorization: `Bearer ${token}` },
        payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
      });
      expect(response.statusCode, role).toBe(200);
      expect(await statusWith(token), role).toBe(401);
      expect(await statusWith(sessionCookieOf(response)?.value as string), role).toBe(200);
      expect(await signIn(user.email, NEW_PASSWORD), role).not.toBeNull();
    }
  }, 90_000);

  it('refuses a wrong current password with 400 under currentPassword, changes nothing and signs no one out', async () => {
    const user = await createUser(t.database, { role: 'Member' });
    const token = await signedIn(user.email);
    const other = await signedIn(user.email);
    const before = await rowOf(user.id);
    const outboxBefore = (await readOutbox(t.database, t.config)).length;
    const response = await change(token, NEW_PASSWORD, 'not my password at all 123');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Validation failed',
      issues: [
        { path: 'currentPassword', code: 'wrong_password', message: WRONG_CURRENT_PASSWORD },
      ],
    });
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(await rowOf(user.id)).toEqual(before);
    expect(await statusWith(token)).toBe(200);
    expect(await statusWith(other)).toBe(200);
    expect(await signIn(user.email, NEW_PASSWORD)).toBeNull();
    expect(await auditOf(user.id, 'user.password_changed')).toEqual([]);
    expect(await readOutbox(t.database, t.config)).toHaveLength(outboxBefore);
  });

  it('refuses a new password the policy refuses, with its reason under newPassword, and one equal to the current', async () => {
    const user = await createUser(t.database, { role: 'BrokerUser' });
    const token = await signedIn(user.email);
    const before = await rowOf(user.id);
    const common = await change(token, 'qwerty123456');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({
      error: 'Validation failed',
      issues: [
        {
          path: 'newPassword',
          code: 'password_policy',
          message: 'This password is too common: choose one that is harder to guess',
        },
      ],
    });
    const short = await change(token, 'too short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'Validation failed',
      issues: [{ path: 'newPassword', message: 'Use at least 12 characters' }],
    });
    const same = await change(token, TEST_PASSWORD);
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({
      error: 'Validation failed',
      issues: [{ path: 'newPassword', code: 'same_password', message: SAME_PASSWORD }],
    });
    expect(await rowOf(user.id)).toEqual(before);
    expect(await statusWith(token)).toBe(200);
  });

  it('answers 401 without a session, or with one that has ended, before reading the body', async () => {
    const user = await createUser(t.database);
    const anonymous = await inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { origin: ORIGIN },
      payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Unauthorized' });
    const noBody = await inject({ method: 'POST', url: '/api/auth/change-password' });
    expect(noBody.statusCode).toBe(401);

    const token = await signedIn(user.email);
    const signOut = await inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(signOut.statusCode).toBe(204);
    expect((await change(token)).statusCode).toBe(401);
    expect(await signIn(user.email, TEST_PASSWORD)).not.toBeNull();
  });

  it('refuses a cookie-carried change from another site (403), as every state change', async () => {
    const user = await createUser(t.database);
    const token = await signedIn(user.email);
    const body = { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD };
    expect((await changePassword(token, body, { origin: 'https://evil.example' })).statusCode).toBe(
      403,
    );
    const noOrigin = await inject({
      method: 'POST',
      url: '/api/auth/change-password',
      cookies: { session: token },
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: body,
    });
    expect(noOrigin.statusCode).toBe(403);
    expect(await signIn(user.email, TEST_PASSWORD)).not.toBeNull();
  });

  it('is audited as user.password_changed by the person, in their tenant’s chain, with no password, hash or address in it', async () => {
    const user = await createUser(t.database, { role: 'EmployerAdmin' });
    const token = await signedIn(user.email);
    expect((await change(token)).statusCode).toBe(200);
    const records = await auditOf(user.id, 'user.password_changed');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actorId: user.id,
      actorType: 'EmployerAdmin',
      actorTenantId: user.brokerId,
      tenantId: user.brokerId,
      entityType: 'user',
      previousState: { passwordChangedAt: user.passwordChangedAt.toISOString() },
      newState: { passwordChangedAt: new Date(clock).toISOString() },
    });
    const text = JSON.stringify(records[0]);
    const hash = (await rowOf(user.id)).passwordHash as string;
    for (const secret of [NEW_PASSWORD, TEST_PASSWORD, hash, user.passwordHash as string]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(user.email);
    expect(text).not.toContain('@');
    expect((await verifyTestChains(t.database)).broken).toEqual([]);
  });

  it('writes a SuperAdmin’s change to the platform chain', async () => {
    const user = await createUser(t.database, { role: 'SuperAdmin' });
    expect((await change(await signedIn(user.email))).statusCode).toBe(200);
    const [record] = await auditOf(user.id, 'user.password_changed');
    expect(record).toMatchObject({
      actorType: 'SuperAdmin',
      tenantId: null,
      chainKey: '@platform',
    });
  });

  it('e-mails the account a notice that says how to get back in if it was not them', async () => {
    const user = await createUser(t.database, { role: 'Member' });
    expect(await noticesTo(user.id)).toEqual([]);
    expect((await change(await signedIn(user.email))).statusCode).toBe(200);
    const notices = await noticesTo(user.id);
    expect(notices).toHaveLength(1);
    const message = notices[0]?.message;
    expect(message?.to).toBe(user.email);
    expect(message?.subject).toBe('Your Pension Administration password was changed');
    expect(message?.text).toContain('Every other place where the account was signed in');
    expect(message?.text).toContain('https://pensions.example.ie/forgot-password');
    expect(message?.html).toContain('href="https://pensions.example.ie/forgot-password"');
    expect(message?.text).not.toContain(NEW_PASSWORD);
  });

  it('ends a reset link that was still open, since the password it would replace is gone', async () => {
    const user = await createUser(t.database);
    const forgot = await inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(200);
    const resetMail = (await readOutbox(t.database, t.config)).find(
      (row) => row.userId === user.id && row.kind === 'password_reset',
    );
    const resetToken = resetTokenIn(resetMail?.message?.text ?? '');
    expect((await change(await signedIn(user.email))).statusCode).toBe(200);
    const reset = await inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetToken, password: 'someone else’s new passphrase' },
    });
    expect(reset.statusCode).toBe(400);
    expect(await signIn(user.email, NEW_PASSWORD)).not.toBeNull();
  });

  it(`allows ${CHANGE_PASSWORD_ATTEMPTS} checks of the current password per account in 15 minutes, then 429 even for the right one`, async () => {
    // The allowance's window runs on Date.now() (@fastify/rate-limit's store): moved below.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const user = await createUser(t.database);
    const token = await signedIn(user.email);
    for (let attempt = 1; attempt <= CHANGE_PASSWORD_ATTEMPTS; attempt += 1) {
      const wrong = await change(token, NEW_PASSWORD, `wrong guess number ${attempt}`);
      expect(wrong.statusCode).toBe(400);
    }
    const refused = await change(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(
      CHANGE_PASSWORD_WINDOW_MS / 1000,
    );
    // Still signed in, and nothing changed: the person can wait, or sign in as usual.
    expect(await statusWith(token)).toBe(200);
    expect(await signIn(user.email, TEST_PASSWORD)).not.toBeNull();
    // Per account: a colleague is not held up.
    const colleague = await createUser(t.database, { brokerId: user.brokerId as string });
    expect((await change(await signedIn(colleague.email))).statusCode).toBe(200);

    clock += CHANGE_PASSWORD_WINDOW_MS;
    vi.setSystemTime(Date.now() + CHANGE_PASSWORD_WINDOW_MS);
    expect((await change(await signedIn(user.email))).statusCode).toBe(200);
  });

  it('counts as an authentication attempt: 10 a minute from one address under /api/auth/*', async () => {
    const user = await createUser(t.database);
    const token = await signedIn(user.email);
    const address = uniqueClientAddress();
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        remoteAddress: address,
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
    for (let i = 0; i < 10; i += 1) expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'Too many requests' });
  });

  it('logs security events by user id, never an address or a password', async () => {
    const user = await createUser(t.database);
    const token = await signedIn(user.email);
    await change(token, NEW_PASSWORD, 'a wrong current password');
    await change(token, 'qwerty123456');
    expect((await change(token)).statusCode).toBe(200);
    const logs = t.logs.text();
    for (const secret of [user.email, NEW_PASSWORD, TEST_PASSWORD, 'a wrong current password']) {
      expect(logs).not.toContain(secret);
    }
    const events = t.logs
      .entries()
      .filter(
        (entry) =>
          typeof entry.securityEvent === 'string' &&
          entry.securityEvent.startsWith('auth.password_change') &&
          entry.userId === user.id,
      )
      .map((entry) => [entry.securityEvent, entry.reason ?? null]);
    expect(events).toEqual([
      ['auth.password_change_failed', 'wrong_password'],
      ['auth.password_change_failed', 'weak_password'],
      ['auth.password_changed', null],
    ]);
  });
});
