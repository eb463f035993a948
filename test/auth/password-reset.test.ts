import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions as InjectOptionsOrUrl } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FORGOT_PASSWORD_ANSWER,
  FORGOT_PASSWORD_MIN_MS,
  INVALID_RESET_TOKEN,
  PASSWORD_RESET_ANSWER,
} from '../../src/server/modules/auth/password-reset.routes.js';
import { auditLog, passwordResetTokens, users } from '../../src/server/platform/db/schema.js';
import { createMemoryStore } from '../../src/server/platform/http/rate-limit-store.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { verifyTestChains } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createUser, TEST_PASSWORD, type UserOverrides } from '../helpers/factories.js';
import { readOutbox, resetTokenIn } from '../helpers/mail.js';

const NEW_PASSWORD = 'a brand new passphrase for 2026';
const MINUTE = 60_000;

let t: TestApp;
let clock = Date.parse('2026-11-02T09:00:00Z');
beforeAll(async () => {
  // The suite reads what was queued: held, so the mail worker cannot deliver and clear it first.
  // The counters are this process's, whatever REDIS_URL says, so that the hour of the per-address
  // e-mail cap can be moved on (they read the real clock, which vi.setSystemTime moves).
  t = await buildTestApp({
    now: () => new Date(clock),
    env: HOLD_MAIL,
    counters: createMemoryStore(),
  });
});
afterAll(() => t.close());

type InjectOptions = Exclude<InjectOptionsOrUrl, string>;
/** Each request from its own client address: the per-IP limits have a suite of their own. */
const inject = (options: InjectOptions) => {
  return t.app.inject({
    remoteAddress: uniqueClientAddress(),
    ...options,
  });
};
const forgotPassword = (email: string) =>
  inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
const resetPassword = (token: string, password = NEW_PASSWORD) =>
  inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
const signIn = (email: string, password: string) =>
  inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });

/** The token of the newest reset e-mail for this address, as the recipient would click it. */
async function latestResetToken(email: string): Promise<string> {
  const messages = (await readOutbox(t.database, t.config)).filter(
    (row) => row.kind === 'password_reset' && row.message?.to === email,
  );
  const newest = messages.at(-1)?.message;
  if (!newest) throw new Error('no reset e-mail was queued for this address');
  return resetTokenIn(newest.text);
}

async function requestedToken(overrides: UserOverrides = {}) {
  const user = await createUser(t.database, overrides);
  expect((await forgotPassword(user.email)).statusCode).toBe(200);
  return { user, token: await latestResetToken(user.email) };
}

const tokensOf = (userId: string) =>
  ownerOf(t.database)
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.userId, userId));
const passwordHashOf = async (userId: string) =>
  (await ownerOf(t.database).select().from(users).where(eq(users.id, userId)))[0]?.passwordHash;

describe('forgot-password (docs/decisions/0020-password-reset.md)', () => {
  it('answers the same 200 for a known, an unknown and a deactivated address, and e-mails only the known one', async () => {
    const known = await createUser(t.database);
    const deactivated = await createUser(t.database, { status: 'deactivated' });
    const outboxBefore = (await readOutbox(t.database, t.config)).length;
    const pausesBefore = t.pauses.length;
    const answers = [
      await forgotPassword(known.email.toUpperCase()),
      await forgotPassword('nobody-here@example.ie'),
      await forgotPassword(deactivated.email),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual(FORGOT_PASSWORD_ANSWER);
    }
    const queued = (await readOutbox(t.database, t.config)).slice(outboxBefore);
    expect(queued.map((row) => row.message?.to)).toEqual([known.email]);
    expect(await tokensOf(deactivated.id)).toHaveLength(0);
    // Each answer was held back to the same floor, whatever work it did: every one waits for what
    // is left of it (nothing, on a machine so busy that the work itself took longer).
    const waits = t.pauses.slice(pausesBefore);
    expect(waits).toHaveLength(3);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(FORGOT_PASSWORD_MIN_MS);
    }
  });

  it('keeps only the SHA-256 of the 32-byte token; the e-mail carries the token in a link from APP_BASE_URL', async () => {
    const { user, token } = await requestedToken();
    const [stored] = await tokensOf(user.id);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(stored?.tokenHash).toBe(
      createHash('sha256').update(Buffer.from(token, 'base64url')).digest('hex'),
    );
    expect(stored?.expiresAt.getTime()).toBe(clock + 60 * MINUTE);
    const [message] = (await readOutbox(t.database, t.config))
      .filter((row) => row.userId === user.id)
      .map((row) => row.message);
    expect(message?.text).toContain(`https://pensions.example.ie/reset-password#token=${token}`);
    expect(message?.html).toContain(
      `href="https://pensions.example.ie/reset-password#token=${token}"`,
    );
    expect(message?.subject).toMatch(/reset/i);
    // Neither the token nor the address is readable anywhere in the database.
    const everything = JSON.stringify(
      await ownerOf(t.database).execute(
        sql`select (select json_agg(t) from password_reset_tokens t)::text as tokens,
                   (select json_agg(o) from email_outbox o)::text as outbox,
                   (select json_agg(a) from audit_log a)::text as audit`,
      ),
    );
    expect(everything).not.toContain(token);
    expect(everything.split(user.email).length - 1).toBe(0);
  });

  it('records the request as an anonymous actor in the account tenant audit chain', async () => {
    const { user } = await requestedToken();
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entityId, user.id), eq(auditLog.action, 'user.password_reset_requested')),
      );
    expect(record).toMatchObject({
      actorId: 'anonymous',
      actorType: 'Anonymous',
      actorTenantId: null,
      tenantId: user.brokerId,
      entityType: 'user',
    });
    expect((await verifyTestChains(t.database)).broken).toEqual([]);
  });

  it('refuses an address that is not one with 400 and writes nothing', async () => {
    const outboxBefore = (await readOutbox(t.database, t.config)).length;
    const answer = await forgotPassword('not an address');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: 'Validation failed' });
    expect(await readOutbox(t.database, t.config)).toHaveLength(outboxBefore);
  });

  it('sends at most five reset e-mails an hour to one address, answering the sixth alike', async () => {
    const user = await createUser(t.database);
    for (let i = 0; i < 6; i += 1) {
      const answer = await forgotPassword(user.email);
      expect(answer.json()).toEqual(FORGOT_PASSWORD_ANSWER);
    }
    const queued = (await readOutbox(t.database, t.config)).filter((row) => row.userId === user.id);
    expect(queued).toHaveLength(5);
    clock += 60 * MINUTE;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * MINUTE });
    try {
      await forgotPassword(user.email);
    } finally {
      vi.useRealTimers();
    }
    expect(
      (await readOutbox(t.database, t.config)).filter((row) => row.userId === user.id),
    ).toHaveLength(6);
  });
});

describe('reset-password (docs/decisions/0020-password-reset.md)', () => {
  it('sets the new password: it signs in, the old one no longer does', async () => {
    const { user, token } = await requestedToken();
    const answer = await resetPassword(token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual(PASSWORD_RESET_ANSWER);
    expect((await signIn(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    const [stored] = await tokensOf(user.id);
    expect(stored?.usedAt?.getTime()).toBe(clock);
  });

  it('ends every session issued before the reset', async () => {
    const { user, token } = await requestedToken();
    const before = await t.tokenFor(user);
    const bearer = { authorization: `Bearer ${before}` };
    expect((await inject({ url: '/api/auth/session', headers: bearer })).json().user.id).toBe(
      user.id,
    );
    clock += 1;
    expect((await resetPassword(token)).statusCode).toBe(200);
    expect((await inject({ url: '/api/auth/session', headers: bearer })).json()).toEqual({
      user: null,
    });
    expect((await inject({ url: '/api/anything', headers: bearer })).statusCode).toBe(401);
  });

  it('is audited as user.password_reset by the user, with no hash in the record, and notifies the user', async () => {
    const { user, token } = await requestedToken();
    await resetPassword(token);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, user.id), eq(auditLog.action, 'user.password_reset')));
    expect(record).toMatchObject({
      actorId: user.id,
      actorType: 'BrokerAdmin',
      tenantId: user.brokerId,
    });
    const newHash = await passwordHashOf(user.id);
    expect(JSON.stringify(record)).not.toContain(newHash);
    expect(JSON.stringify(record)).not.toContain(token);
    const notice = (await readOutbox(t.database, t.config)).filter(
      (row) => row.userId === user.id && row.kind === 'password_changed',
    );
    expect(notice).toHaveLength(1);
    expect(notice[0]?.message?.text).toContain('https://pensions.example.ie/signin');
    expect((await verifyTestChains(t.database)).broken).toEqual([]);
  });

  it('refuses a replay of a used token with 400', async () => {
    const { token } = await requestedToken();
    expect((await resetPassword(token)).statusCode).toBe(200);
    const replay = await resetPassword(token, 'yet another passphrase 2026');
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual(INVALID_RESET_TOKEN);
  });

  it('lets only one of two simultaneous resets with one token succeed', async () => {
    const { user, token } = await requestedToken();
    const outcomes = await Promise.all([
      resetPassword(token, 'first simultaneous passphrase'),
      resetPassword(token, 'second simultaneous passphrase'),
    ]);
    expect(outcomes.map((outcome) => outcome.statusCode).sort()).toEqual([200, 400]);
    const winner = outcomes[0]?.statusCode === 200 ? 'first' : 'second';
    expect((await signIn(user.email, `${winner} simultaneous passphrase`)).statusCode).toBe(200);
  });

  it('accepts a token until 60 minutes have passed, and refuses it with 400 from then on', async () => {
    const early = await requestedToken();
    clock += 60 * MINUTE - 1;
    expect((await resetPassword(early.token)).statusCode).toBe(200);

    const late = await requestedToken();
    clock += 60 * MINUTE;
    const expired = await resetPassword(late.token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual(INVALID_RESET_TOKEN);
    expect((await signIn(late.user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('invalidates older unused tokens when a newer one is requested', async () => {
    const { user, token: older } = await requestedToken();
    clock += 1;
    await forgotPassword(user.email);
    const newer = await latestResetToken(user.email);
    expect(newer).not.toBe(older);
    expect((await resetPassword(older)).statusCode).toBe(400);
    expect((await resetPassword(newer)).statusCode).toBe(200);
    const states = (await tokensOf(user.id)).map((row) => ({
      used: row.usedAt !== null,
      invalidated: row.invalidatedAt !== null,
    }));
    expect(states).toEqual(
      expect.arrayContaining([
        { used: false, invalidated: true },
        { used: true, invalidated: false },
      ]),
    );
  });

  it('allows 3 attempts per token: the fourth gets 429 even with a good password', async () => {
    const { user, token } = await requestedToken();
    for (const weak of ['qwerty123456', '1qaz2wsx3edc', '123456qwerty']) {
      const refused = await resetPassword(token, weak);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        error: 'Validation failed',
        issues: [
          {
            path: 'password',
            code: 'password_policy',
            message: 'This password is too common: choose one that is harder to guess',
          },
        ],
      });
    }
    const fourth = await resetPassword(token);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ error: 'Too many requests' });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses unknown and malformed tokens with 400, and a too-short password as a validation failure', async () => {
    const unknown = Buffer.alloc(32, 7).toString('base64url');
    for (const token of [unknown, 'not-a-token', `${unknown}A`]) {
      const refused = await resetPassword(token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(INVALID_RESET_TOKEN);
    }
    const { user, token } = await requestedToken();
    const short = await resetPassword(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'Validation failed',
      issues: [{ path: 'password' }],
    });
    expect((await tokensOf(user.id))[0]?.usedAt).toBeNull();
  });

  it('refuses the token of an account deactivated after the request', async () => {
    const { user, token } = await requestedToken();
    await ownerOf(t.database)
      .update(users)
      .set({ status: 'deactivated' })
      .where(eq(users.id, user.id));
    expect((await resetPassword(token)).statusCode).toBe(400);
  });

  it('works for a SuperAdmin account, whose records go to the platform chain', async () => {
    const { user, token } = await requestedToken({ role: 'SuperAdmin' });
    expect((await resetPassword(token)).statusCode).toBe(200);
    expect((await signIn(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    const actions = await ownerOf(t.database)
      .select({ action: auditLog.action, chainKey: auditLog.chainKey })
      .from(auditLog)
      .where(eq(auditLog.entityId, user.id));
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: 'user.password_reset_requested', chainKey: '@platform' },
        { action: 'user.password_reset', chainKey: '@platform' },
      ]),
    );
  });

  it('never logs an e-mail address or a token', async () => {
    const { user, token } = await requestedToken();
    await resetPassword(token, 'qwerty123456');
    await resetPassword(token);
    await resetPassword(token);
    const logs = t.logs.text();
    expect(logs).not.toContain(user.email);
    expect(logs).not.toContain(token);
    const events = t.logs
      .entries()
      .filter((entry) => typeof entry.securityEvent === 'string' && entry.userId === user.id)
      .map((entry) => [entry.securityEvent, entry.reason ?? null]);
    expect(events).toEqual([
      ['auth.password_reset_requested', null],
      ['auth.password_reset_failed', 'weak_password'],
      ['auth.password_reset_succeeded', null],
      ['auth.password_reset_failed', 'invalid_token'],
    ]);
  });
});

describe('checking a reset link before asking for a password (docs/decisions/0020-password-reset.md)', () => {
  const resetLink = (token: string, remoteAddress = uniqueClientAddress()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-link',
      payload: { token },
      remoteAddress,
    });

  it('says an open link is usable, without a session, as often as asked, without using it up', async () => {
    const { user, token } = await requestedToken();
    // More checks than a link has attempts: a check is not one of them.
    for (let check = 0; check < 4; check += 1) {
      const answer = await resetLink(token);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ usable: true });
    }
    const [row] = await tokensOf(user.id);
    expect(row?.usedAt).toBeNull();
    expect((await resetPassword(token)).statusCode).toBe(200);
    expect((await signIn(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('gives one answer for a used, replaced, withdrawn, unknown, malformed or expired link', async () => {
    const used = await requestedToken();
    expect((await resetPassword(used.token)).statusCode).toBe(200);
    const replaced = await requestedToken();
    clock += 1;
    await forgotPassword(replaced.user.email);
    const deactivated = await requestedToken();
    await ownerOf(t.database)
      .update(users)
      .set({ status: 'deactivated' })
      .where(eq(users.id, deactivated.user.id));
    const unknown = Buffer.alloc(32, 9).toString('base64url');
    const expired = await requestedToken();
    expect((await resetLink(expired.token)).json()).toEqual({ usable: true });
    for (const token of [used.token, replaced.token, deactivated.token, unknown, 'not-a-token']) {
      const answer = await resetLink(token);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ usable: false });
    }
    clock += 60 * MINUTE;
    expect((await resetLink(expired.token)).json()).toEqual({ usable: false });
  });

  it('is not a reset: it records nothing and logs neither the token nor an address', async () => {
    const { user, token } = await requestedToken();
    const records = async () =>
      (await ownerOf(t.database).select().from(auditLog).where(eq(auditLog.entityId, user.id)))
        .length;
    const before = await records();
    expect((await resetLink(token)).json()).toEqual({ usable: true });
    expect(await records()).toBe(before);
    const logs = t.logs.text();
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(user.email);
  });

  it('is limited per address as the other authentication routes are', async () => {
    const address = uniqueClientAddress();
    const answers: number[] = [];
    for (let check = 0; check < 11; check += 1) {
      answers.push((await resetLink('A'.repeat(43), address)).statusCode);
    }
    expect(answers.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});

describe('development accounts (docs/decisions/0017-development-accounts-and-the-first-superadmin.md)', () => {
  it('get no reset e-mail under production, answered like an unknown address', async () => {
    const production = await buildTestApp({
      database: t.database,
      env: { APP_ENV: 'production', TRUST_PROXY: '127.0.0.1' },
    });
    try {
      const account = await createUser(t.database, { isDevelopmentAccount: true });
      const answer = await production.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: account.email },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': uniqueClientAddress() },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual(FORGOT_PASSWORD_ANSWER);
      expect(await tokensOf(account.id)).toHaveLength(0);
    } finally {
      await production.app.close();
    }
  });
});
