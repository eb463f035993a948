import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';
import { invitationTokenIn, readOutbox, resetTokenIn } from '../helpers/mail.js';

/**
 * "A common password is refused" holds for passwords that are guessed first though no top-10,000
 * list holds them: repeats, sequences, keyboard runs and the long entries of a breached-password
 * list (docs/decisions/0108-passwords-guessable-and-breached.md). Every way of setting a password
 * applies the one rule, src/contracts/passwords.ts.
 */

/** Twelve characters or more each, and each refused; the last only the breached list knows. */
const WEAK = [
  'passwordpassword',
  '111111111111',
  'abcdefghijkl',
  'qwertyuiopas',
  'perasperaadastra',
] as const;
const BREACHED_ONLY = 'perasperaadastra';
const STRONG = 'Harbour-Lantern-Quartz-4471';
const REFUSALS = [FIELD_MESSAGES.passwordTooCommon, FIELD_MESSAGES.passwordTooGuessable];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: HOLD_MAIL });
});
afterAll(() => t.close());

const post = (url: string, payload: object, authorization?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: uniqueClientAddress(),
    ...(authorization ? { headers: { authorization } } : {}),
  });

/** A 400 under the field, in a sentence that says why, and naming nothing else. */
function expectRefused(response: LightMyRequestResponse, field: string, password: string) {
  expect(response.statusCode, `${password}: ${response.body}`).toBe(400);
  const { issues } = response.json() as {
    issues: { path: string; code: string; message: string }[];
  };
  expect(issues).toHaveLength(1);
  expect(issues[0]).toMatchObject({ path: field, code: 'password_policy' });
  expect(REFUSALS).toContain(issues[0]?.message);
  expect(response.body).not.toContain(password);
}

const hashOf = async (userId: string) =>
  (await ownerOf(t.database).select().from(users).where(eq(users.id, userId)))[0]?.passwordHash;

async function lastMail(email: string) {
  const rows = (await readOutbox(t.database, t.config)).filter((row) => row.message?.to === email);
  const text = rows.at(-1)?.message?.text;
  if (!text) throw new Error('no e-mail was queued for this address');
  return text;
}

describe('a weak password is refused wherever a password is set', () => {
  it('when a SuperAdmin creates an account with a chosen password: no account is made', async () => {
    const { brokerId } = await firmFixture(t.database);
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    const authorization = `Bearer ${await t.tokenFor(platform)}`;
    const create = (email: string, password: string) =>
      post(
        `/api/brokers/${brokerId}/users`,
        { email, name: 'Róisín Daly', role: 'BrokerUser', password },
        authorization,
      );
    for (const password of WEAK) {
      const email = `chosen-${createId()}@example.ie`;
      expectRefused(await create(email, password), 'password', password);
      const made = await ownerOf(t.database).select().from(users).where(eq(users.email, email));
      expect(made).toEqual([]);
    }
    const created = await create(`chosen-${createId()}@example.ie`, STRONG);
    expect(created.statusCode, created.body).toBe(201);
  });

  it('when an invitation is accepted: the account stays invited until a strong one is chosen', async () => {
    const { admin, employerId } = await firmFixture(t.database, {
      users: { admin: 'BrokerAdmin' },
    });
    const email = `invited-${createId()}@example.ie`;
    const invited = await post(
      `/api/employers/${employerId}/users`,
      { email, name: 'Cian Byrne', role: 'EmployerUser' },
      `Bearer ${await t.tokenFor(admin)}`,
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const token = invitationTokenIn(await lastMail(email));
    // A link allows three tries (docs/api.md, "Rate limits"): two refusals, then the strong
    // password.
    for (const password of ['qwertyuiopas', BREACHED_ONLY]) {
      expectRefused(
        await post('/api/auth/accept-invitation', { token, password }),
        'password',
        password,
      );
    }
    const { id } = invited.json() as { id: string };
    expect(await hashOf(id)).toBeNull();
    const accepted = await post('/api/auth/accept-invitation', { token, password: STRONG });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('when a password is reset: the old password still signs in until a strong one is chosen', async () => {
    const user = await createUser(t.database);
    expect((await post('/api/auth/forgot-password', { email: user.email })).statusCode).toBe(200);
    const token = resetTokenIn(await lastMail(user.email));
    const before = await hashOf(user.id);
    for (const password of ['111111111111', BREACHED_ONLY]) {
      expectRefused(
        await post('/api/auth/reset-password', { token, password }),
        'password',
        password,
      );
    }
    expect(await hashOf(user.id)).toBe(before);
    const signIn = await post('/api/auth/signin', { email: user.email, password: TEST_PASSWORD });
    expect(signIn.statusCode).toBe(200);
    expect((await post('/api/auth/reset-password', { token, password: STRONG })).statusCode).toBe(
      200,
    );
  });

  it('when one’s own password is changed: the current one stays', async () => {
    const user = await createUser(t.database);
    const authorization = `Bearer ${await t.tokenFor(user)}`;
    const before = await hashOf(user.id);
    for (const password of WEAK) {
      const refused = await post(
        '/api/auth/change-password',
        { currentPassword: TEST_PASSWORD, newPassword: password },
        authorization,
      );
      expectRefused(refused, 'newPassword', password);
    }
    expect(await hashOf(user.id)).toBe(before);
    const changed = await post(
      '/api/auth/change-password',
      { currentPassword: TEST_PASSWORD, newPassword: STRONG },
      authorization,
    );
    expect(changed.statusCode, changed.body).toBe(200);
  });
});
