import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_UP_REQUIRED } from '../../src/contracts/second-factor.js';
import { claimsOf } from '../../src/server/modules/auth/auth.service.js';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import type { Role } from '../../src/server/platform/tenancy/roles.js';
import { createSessionTokens } from '../../src/server/platform/tenancy/session-token.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL, TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createUser, TEST_PASSWORD, type UserRow } from '../helpers/factories.js';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.js';

/**
 * Passkeys through the API (docs/decisions/0111-passkeys.md), with an authenticator in software
 * so that they run on both databases; test/e2e/second-factor.test.ts does the same in Chromium.
 */

const ORIGIN = 'https://pensions.example.ie';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: HOLD_MAIL });
});
afterAll(() => t.close());

class Browser {
  readonly address = uniqueClientAddress();
  readonly cookies = new Map<string, string>();

  async send(
    method: InjectOptions['method'],
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> {
    const response = await t.app.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: { origin: ORIGIN },
      cookies: Object.fromEntries(this.cookies),
      ...(payload === undefined ? {} : { payload }),
    });
    for (const cookie of response.cookies as Array<{ name: string; value: string }>) {
      if (cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  signIn(user: UserRow) {
    return this.send('POST', '/api/auth/signin', { email: user.email, password: TEST_PASSWORD });
  }

  /** The browser's prompt answered by `authenticator`. */
  async usePasskey(authenticator: SoftwareAuthenticator) {
    const options = await this.send('POST', '/api/auth/passkeys/authentication/options');
    expect(options.statusCode).toBe(200);
    const response = authenticator.authenticate(options.json());
    return {
      options: options.json(),
      response,
      answer: await this.send('POST', '/api/auth/passkeys/authentication', { response }),
    };
  }
}

/** A signed-in account with a passkey on `authenticator`. */
async function withPasskey(name = 'Work laptop') {
  const user = await createUser(t.database, { role: 'BrokerUser' });
  const browser = new Browser();
  await browser.signIn(user);
  const authenticator = new SoftwareAuthenticator('pensions.example.ie', ORIGIN);
  const options = await browser.send('POST', '/api/auth/passkeys/registration/options');
  expect(options.statusCode, options.body).toBe(200);
  const registered = await browser.send('POST', '/api/auth/passkeys/registration', {
    name,
    response: authenticator.register(options.json()),
  });
  expect(registered.statusCode, registered.body).toBe(201);
  return { user, browser, authenticator, registered: registered.json() };
}

describe('passkeys', () => {
  it('are registered under a name, with recovery codes as the first factor, and listed', async () => {
    const { user, browser, registered } = await withPasskey('Office laptop');
    expect(registered.passkey).toMatchObject({ name: 'Office laptop', lastUsedAt: null });
    expect(registered.recoveryCodes).toHaveLength(10);
    const status = await browser.send('GET', '/api/me/second-factor');
    expect(status.json()).toMatchObject({
      totp: false,
      passkeys: [{ id: registered.passkey.id, name: 'Office laptop' }],
      recoveryCodesLeft: 10,
    });
    const records = (await ownerOf(t.database).select().from(auditLog)).filter(
      (record) => record.entityId === user.id && record.action === 'user.passkey_added',
    );
    expect(records).toHaveLength(1);
    expect(records[0]?.newState).toMatchObject({ passkeyId: registered.passkey.id, passkeys: 1 });
    expect(JSON.stringify(records)).not.toContain('Office laptop');
  });

  it('refuse an answer made for another challenge, and register nothing', async () => {
    const user = await createUser(t.database, { role: 'BrokerUser' });
    const browser = new Browser();
    await browser.signIn(user);
    const authenticator = new SoftwareAuthenticator('pensions.example.ie', ORIGIN);
    await browser.send('POST', '/api/auth/passkeys/registration/options');
    const forged = authenticator.register({
      challenge: 'bm90LXRoZS1jaGFsbGVuZ2U',
      user: { id: 'eA' },
    });
    const refused = await browser.send('POST', '/api/auth/passkeys/registration', {
      name: 'Forged',
      response: forged,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'That passkey was not accepted' });
    expect((await browser.send('GET', '/api/me/second-factor')).json().passkeys).toEqual([]);
  });

  it('are the second step after the password, offered for that account alone', async () => {
    const { user, authenticator, registered } = await withPasskey();
    const browser = new Browser();
    const first = await browser.signIn(user);
    expect(first.json()).toEqual({ mfaRequired: true, methods: ['passkey', 'recovery_code'] });
    const { options, answer } = await browser.usePasskey(authenticator);
    expect(options.allowCredentials.map((credential: { id: string }) => credential.id)).toEqual([
      authenticator.credentials[0]?.id.toString('base64url'),
    ]);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().user.id).toBe(user.id);
    expect((await browser.send('GET', '/api/me')).statusCode).toBe(200);
    const status = await browser.send('GET', '/api/me/second-factor');
    expect(status.json().passkeys[0].id).toBe(registered.passkey.id);
    expect(status.json().passkeys[0].lastUsedAt).not.toBeNull();
  });

  it('sign in on their own, and refuse the same answer sent again', async () => {
    const { user, authenticator } = await withPasskey();
    const browser = new Browser();
    const options = await browser.send('POST', '/api/auth/passkeys/authentication/options');
    expect(options.json().allowCredentials).toBeUndefined();
    const ceremony = browser.cookies.get('webauthn') as string;
    const response = authenticator.authenticate(options.json());
    const answer = await browser.send('POST', '/api/auth/passkeys/authentication', { response });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().user.id).toBe(user.id);

    const replay = new Browser();
    replay.cookies.set('webauthn', ceremony);
    const again = await replay.send('POST', '/api/auth/passkeys/authentication', { response });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'That passkey was not accepted' });
    expect(replay.cookies.has('session')).toBe(false);
  });

  it("refuse another account's passkey as the second step", async () => {
    const { user } = await withPasskey();
    const { authenticator: someoneElses } = await withPasskey();
    const browser = new Browser();
    await browser.signIn(user);
    const options = await browser.send('POST', '/api/auth/passkeys/authentication/options');
    const answer = await browser.send('POST', '/api/auth/passkeys/authentication', {
      response: someoneElses.authenticate(options.json()),
    });
    expect(answer.statusCode).toBe(401);
    expect(browser.cookies.has('session')).toBe(false);
  });

  it('once removed no longer sign in, and the account signs in with its password alone again', async () => {
    const { user, browser, authenticator, registered } = await withPasskey();
    const elsewhere = new Browser();
    elsewhere.cookies.set('session', browser.cookies.get('session') as string);
    const removed = await browser.send('DELETE', `/api/auth/passkeys/${registered.passkey.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await elsewhere.send('GET', '/api/me')).statusCode).toBe(401);
    expect((await browser.send('GET', '/api/me/second-factor')).json()).toMatchObject({
      passkeys: [],
      recoveryCodesLeft: 0,
    });
    const { answer } = await new Browser().usePasskey(authenticator);
    expect(answer.statusCode).toBe(401);
    const again = await new Browser().signIn(user);
    expect(again.json().user?.id).toBe(user.id);
  });

  it('confirm a signed-in person for an action that needs a recent factor', async () => {
    const { user, authenticator } = await withPasskey();
    const [row] = await ownerOf(t.database).select().from(users).where(eq(users.id, user.id));
    const tokens = createSessionTokens({ secret: TEST_SECRETS.AUTH_SECRET, now: () => new Date() });
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const browser = new Browser();
    browser.cookies.set(
      'session',
      await tokens.issue(claimsOf(row as UserRow & { role: Role }), tenMinutesAgo, tenMinutesAgo),
    );
    const refused = await browser.send('POST', '/api/auth/mfa/totp');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: STEP_UP_REQUIRED });
    const { answer } = await browser.usePasskey(authenticator);
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await browser.send('POST', '/api/auth/mfa/totp')).statusCode).toBe(200);
  });
});
