import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVALID_CODE,
  NO_FACTOR_TO_RESET,
  STEP_UP_REQUIRED,
} from '../../src/contracts/second-factor.js';
import { claimsOf } from '../../src/server/modules/auth/auth.service.js';
import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import { resealTotpSecrets } from '../../src/server/modules/auth/second-factor.data.js';
import {
  CODE_ATTEMPTS,
  resetSuperAdminFactors,
} from '../../src/server/modules/auth/second-factor.service.js';
import { base32Decode, hotp, timeStep, totpAt } from '../../src/server/modules/auth/totp.rules.js';
import { auditChainKey } from '../../src/server/platform/audit/audit-chain.js';
import { createAuditService } from '../../src/server/platform/audit/audit-log.js';
import { ppsKeyId } from '../../src/server/platform/crypto/pps-keyring.js';
import { auditLog, users, userTotpSecrets } from '../../src/server/platform/db/schema.js';
import { createMailer } from '../../src/server/platform/email/mailer.js';
import type { Role } from '../../src/server/platform/tenancy/roles.js';
import { createSessionTokens } from '../../src/server/platform/tenancy/session-token.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL, TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  TEST_PASSWORD,
  type UserRow,
} from '../helpers/factories.js';
import { readOutbox } from '../helpers/mail.js';

/**
 * A second factor at sign-in (docs/decisions/0110-second-factor.md): the authenticator app (RFC
 * 6238) and recovery codes, the sign-in's second step, confirming again for the actions that need
 * it, the administrator's reset, and the notices.
 */

const ORIGIN = 'https://pensions.example.ie';
/** The service's clock, moved on by the tests: codes change every 30 seconds. */
let clock = Date.now();
const now = () => new Date(clock);
const later = (seconds: number) => {
  clock += seconds * 1000;
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now, env: HOLD_MAIL });
});
afterAll(() => t.close());

/** A browser: its own address, the cookies the service sets, and this service's Origin. */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly address = uniqueClientAddress()) {}

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
    for (const cookie of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
    }>) {
      if (cookie.value === '' || cookie.maxAge === 0) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  signIn(user: { email: string }, password = TEST_PASSWORD) {
    return this.send('POST', '/api/auth/signin', { email: user.email, password });
  }
}

/** The secret of the account's app, read back as the app holds it. */
async function setUpApp(browser: Browser): Promise<{ secret: Buffer; recoveryCodes: string[] }> {
  const started = await browser.send('POST', '/api/auth/mfa/totp');
  expect(started.statusCode, started.body).toBe(200);
  expect(started.headers['cache-control']).toBe('no-store');
  const { secret, otpauthUrl } = started.json() as { secret: string; otpauthUrl: string };
  expect(new URL(otpauthUrl).searchParams.get('secret')).toBe(secret);
  const bytes = base32Decode(secret);
  const confirmed = await browser.send('POST', '/api/auth/mfa/totp/confirm', {
    code: totpAt(bytes, now()),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret: bytes, recoveryCodes: confirmed.json().recoveryCodes };
}

async function staff(role: Role = 'BrokerUser', brokerId?: string): Promise<UserRow> {
  return createUser(t.database, { role, ...(brokerId ? { brokerId } : {}) });
}

async function signedInBrowser(user: UserRow): Promise<Browser> {
  const browser = new Browser();
  const response = await browser.signIn(user);
  expect(response.statusCode, response.body).toBe(200);
  return browser;
}

/** A new account with its authenticator app set up: each test spends codes of its own. */
async function withApp(role: Role = 'BrokerUser', brokerId?: string) {
  const user = await staff(role, brokerId);
  const browser = await signedInBrowser(user);
  return { user, browser, ...(await setUpApp(browser)) };
}

describe('setting up an authenticator app', () => {
  it('refuses a wrong first code and changes nothing; the right one gives ten recovery codes once', async () => {
    const user = await staff();
    const browser = await signedInBrowser(user);
    const started = await browser.send('POST', '/api/auth/mfa/totp');
    const secret = base32Decode(started.json().secret);
    const wrong = await browser.send('POST', '/api/auth/mfa/totp/confirm', {
      code: hotp(secret, timeStep(now()) + 5),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().issues[0]).toMatchObject({ path: 'code', code: 'invalid_code' });
    const before = await browser.send('GET', '/api/me/second-factor');
    expect(before.json()).toMatchObject({ totp: false, passkeys: [], recoveryCodesLeft: 0 });

    const confirmed = await browser.send('POST', '/api/auth/mfa/totp/confirm', {
      code: totpAt(secret, now()),
    });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes)
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    const after = await browser.send('GET', '/api/me/second-factor');
    expect(after.json()).toMatchObject({ totp: true, recoveryCodesLeft: 10, required: false });
  });

  it('keeps the secret sealed in the database, never as the app shows it', async () => {
    const user = await staff();
    const browser = await signedInBrowser(user);
    const started = await browser.send('POST', '/api/auth/mfa/totp');
    const { secret } = started.json() as { secret: string };
    const rows = await ownerOf(t.database)
      .select()
      .from(userTotpSecrets)
      .where(eq(userTotpSecrets.userId, user.id));
    expect(rows).toHaveLength(1);
    for (const stored of rows) {
      expect(JSON.stringify(stored)).not.toContain(secret);
    }
  });

  it('ends every other session of the account, keeps this one, and tells the holder by e-mail', async () => {
    const user = await staff();
    const here = await signedInBrowser(user);
    const elsewhere = await signedInBrowser(user);
    expect((await elsewhere.send('GET', '/api/me')).statusCode).toBe(200);
    await setUpApp(here);
    expect((await elsewhere.send('GET', '/api/me')).statusCode).toBe(401);
    expect((await here.send('GET', '/api/me')).statusCode).toBe(200);
    const mails = (await readOutbox(t.database, t.config)).filter(
      (row) => row.userId === user.id && row.kind === 'second_factor_changed',
    );
    expect(mails.map((row) => row.message?.subject)).toEqual([
      'How you sign in to Pension Administration has changed',
    ]);
    expect(mails[0]?.message?.text).toContain('An authenticator app was set up');
  });

  it('records the change in the audit log without the secret, the codes or the address', async () => {
    const user = await staff();
    const browser = await signedInBrowser(user);
    const started = await browser.send('POST', '/api/auth/mfa/totp');
    const secret = started.json().secret as string;
    const confirmed = await browser.send('POST', '/api/auth/mfa/totp/confirm', {
      code: totpAt(base32Decode(secret), now()),
    });
    const codes: string[] = confirmed.json().recoveryCodes;
    const records = (await ownerOf(t.database).select().from(auditLog)).filter(
      (record) => record.entityId === user.id,
    );
    expect(records.map((record) => record.action)).toEqual([
      'user.second_factor_setup_started',
      'user.second_factor_added',
    ]);
    const text = JSON.stringify(records);
    for (const secretText of [secret, ...codes, user.email]) expect(text).not.toContain(secretText);
  });
});

describe('signing in with a second factor', () => {
  it('answers the right password with the second step and a challenge cookie, and no session', async () => {
    const { user } = await withApp();
    const browser = new Browser();
    const response = await browser.signIn(user);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    expect([...browser.cookies.keys()]).toEqual(['second-step']);
    expect((await browser.send('GET', '/api/me')).statusCode).toBe(401);
    expect((await browser.send('GET', '/api/auth/session')).json()).toEqual({ user: null });
  });

  it('answers a wrong password as before, with no challenge', async () => {
    const { user } = await withApp();
    const browser = new Browser();
    const response = await browser.signIn(user, 'not the password at all');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Invalid email or password' });
    expect(browser.cookies.size).toBe(0);
  });

  it('issues the session for the current code, then refuses the same code again', async () => {
    const { user, secret } = await withApp();
    later(30);
    const code = totpAt(secret, now());
    const first = new Browser();
    await first.signIn(user);
    const verified = await first.send('POST', '/api/auth/mfa/verify', { code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user.id).toBe(user.id);
    expect(first.cookies.has('session')).toBe(true);
    expect(first.cookies.has('second-step')).toBe(false);
    expect((await first.send('GET', '/api/me')).statusCode).toBe(200);

    const replay = new Browser();
    await replay.signIn(user);
    const again = await replay.send('POST', '/api/auth/mfa/verify', { code });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: INVALID_CODE });
    expect(replay.cookies.has('session')).toBe(false);
  });

  it('signs in an office of twelve with their codes from one address in a minute, and refuses its sixth wrong code', async () => {
    const office = uniqueClientAddress();
    const people = [];
    for (let n = 0; n < 12; n += 1) people.push(await withApp());
    later(30);
    // The sign-in limit counts an address's failures in the minute of the service's clock
    // (docs/decisions/0107), which stands still through what follows: all of it falls in one.
    for (const [index, { user, secret }] of people.entries()) {
      const browser = new Browser(office);
      expect((await browser.signIn(user)).statusCode, `password ${index + 1}`).toBe(200);
      const verified = await browser.send('POST', '/api/auth/mfa/verify', {
        code: totpAt(secret, now()),
      });
      expect(verified.statusCode, `second step ${index + 1}`).toBe(200);
    }
    const answers: number[] = [];
    for (const { user, secret } of people.slice(0, 6)) {
      const browser = new Browser(office);
      await browser.signIn(user);
      const wrong = await browser.send('POST', '/api/auth/mfa/verify', {
        code: hotp(secret, timeStep(now()) + 7),
      });
      answers.push(wrong.statusCode);
    }
    // Five wrong codes are told so; the sixth attempt from the address waits out the minute, as
    // the next password from it does.
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await new Browser(office).signIn(people[0]?.user ?? { email: '' })).statusCode).toBe(
      429,
    );
  }, 120_000);

  it('takes the code of the step before or after (a clock a little off), and no further', async () => {
    const { user, secret } = await withApp();
    later(90);
    const step = timeStep(now());
    for (const [offset, accepted] of [
      [-2, false],
      [2, false],
      [-1, true],
    ] as const) {
      const browser = new Browser();
      await browser.signIn(user);
      const response = await browser.send('POST', '/api/auth/mfa/verify', {
        code: hotp(secret, step + offset),
      });
      expect(response.statusCode, `step ${offset}`).toBe(accepted ? 200 : 401);
    }
    // Once a later step is used, the earlier ones are spent too.
    const browser = new Browser();
    await browser.signIn(user);
    expect(
      (await browser.send('POST', '/api/auth/mfa/verify', { code: hotp(secret, step + 1) }))
        .statusCode,
    ).toBe(200);
    const late = new Browser();
    await late.signIn(user);
    expect(
      (await late.send('POST', '/api/auth/mfa/verify', { code: hotp(secret, step) })).statusCode,
    ).toBe(401);
  });

  it('takes each recovery code once, typed in any case and without its hyphens', async () => {
    const { user, recoveryCodes } = await withApp();
    const [code] = recoveryCodes as [string];
    const first = new Browser();
    await first.signIn(user);
    const used = await first.send('POST', '/api/auth/mfa/verify', {
      code: code.replaceAll('-', '').toLowerCase(),
    });
    expect(used.statusCode, used.body).toBe(200);
    const second = new Browser();
    await second.signIn(user);
    const again = await second.send('POST', '/api/auth/mfa/verify', { code });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: INVALID_CODE });
    const status = await first.send('GET', '/api/me/second-factor');
    expect(status.json().recoveryCodesLeft).toBe(9);
  });

  it('refuses a code without a challenge, or with a challenge older than five minutes', async () => {
    const { user, secret } = await withApp();
    later(30);
    const bare = new Browser();
    const without = await bare.send('POST', '/api/auth/mfa/verify', {
      code: totpAt(secret, now()),
    });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({ error: INVALID_CODE });

    const slow = new Browser();
    await slow.signIn(user);
    later(6 * 60);
    const expired = await slow.send('POST', '/api/auth/mfa/verify', {
      code: totpAt(secret, now()),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: INVALID_CODE });
  });

  it(`refuses every code after ${CODE_ATTEMPTS} tries in a quarter of an hour, the right one included`, async () => {
    const { user, secret } = await withApp();
    later(30);
    const step = timeStep(now());
    const statuses: number[] = [];
    // Setting the app up spent one of the allowance already.
    for (let attempt = 1; attempt < CODE_ATTEMPTS; attempt += 1) {
      // A new browser (and address) each time: the allowance is the account's.
      const browser = new Browser();
      await browser.signIn(user);
      statuses.push(
        (await browser.send('POST', '/api/auth/mfa/verify', { code: hotp(secret, step + 7) }))
          .statusCode,
      );
    }
    const browser = new Browser();
    await browser.signIn(user);
    const refused = await browser.send('POST', '/api/auth/mfa/verify', {
      code: totpAt(secret, now()),
    });
    expect(statuses).toEqual(new Array(CODE_ATTEMPTS - 1).fill(401));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(browser.cookies.has('session')).toBe(false);
  });
});

describe('actions that need a recent second factor', () => {
  let brokerId: string;
  let employerId: string;
  let member: { id: string; ppsNumber: string };
  let user: UserRow;
  let secret: Buffer;
  beforeAll(async () => {
    brokerId = await createBroker(t.database);
    employerId = await createEmployer(t.database, brokerId);
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    member = await createMember(t.database, { brokerId, employerId, schemeId });
    user = await staff('BrokerAdmin', brokerId);
    ({ secret } = await setUpApp(await signedInBrowser(user)));
  });

  /** A session whose factor was confirmed `secondsAgo`, as a sign-in then would have issued it. */
  async function sessionConfirmed(secondsAgo: number): Promise<Browser> {
    const tokens = createSessionTokens({ secret: TEST_SECRETS.AUTH_SECRET, now });
    const [row] = await ownerOf(t.database).select().from(users).where(eq(users.id, user.id));
    const seconds = Math.floor(clock / 1000);
    const browser = new Browser();
    browser.cookies.set(
      'session',
      await tokens.issue(
        claimsOf(row as UserRow & { role: Role }),
        seconds - secondsAgo,
        seconds - secondsAgo,
      ),
    );
    return browser;
  }

  it('refuses a PPS reveal without a factor confirmed in the last 5 minutes, saying what to do', async () => {
    const browser = await sessionConfirmed(6 * 60);
    const refused = await browser.send('POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: STEP_UP_REQUIRED });
    expect(refused.body).not.toContain(member.ppsNumber);
    // Every export of members' data: the member's file, as JSON and as CSV, and the employer's
    // auto-enrolment assessment with each employee's pay.
    for (const path of [
      `/api/members/${member.id}/export`,
      `/api/members/${member.id}/export.csv`,
      `/api/employers/${employerId}/auto-enrolment/export`,
    ]) {
      const exported = await browser.send('GET', path);
      expect(exported.statusCode, path).toBe(403);
      expect(exported.json(), path).toEqual({ error: STEP_UP_REQUIRED });
    }
    // Reading the member, masked, needs nothing more.
    expect((await browser.send('GET', `/api/members/${member.id}`)).statusCode).toBe(200);
  });

  it('reveals it once the person confirms their factor again, and not on a wrong code', async () => {
    later(30);
    const browser = await sessionConfirmed(6 * 60);
    const wrong = await browser.send('POST', '/api/auth/mfa/confirm', {
      code: hotp(secret, timeStep(now()) + 9),
    });
    expect(wrong.statusCode).toBe(400);
    expect(
      (
        await browser.send('POST', `/api/members/${member.id}/pps/reveal`, {
          reason: 'identity_check',
        })
      ).statusCode,
    ).toBe(403);
    const confirmed = await browser.send('POST', '/api/auth/mfa/confirm', {
      code: totpAt(secret, now()),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    const revealed = await browser.send('POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.json()).toEqual({ ppsNumber: member.ppsNumber });
    // Five minutes on, it is needed again.
    later(5 * 60 + 1);
    expect(
      (
        await browser.send('POST', `/api/members/${member.id}/pps/reveal`, {
          reason: 'identity_check',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('needs nothing more of an account without a second factor', async () => {
    const plain = await staff('BrokerUser', brokerId);
    const response = await t.requestAs(plain, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses changing one’s factors too without a recent one', async () => {
    const browser = await sessionConfirmed(10 * 60);
    for (const [method, url] of [
      ['POST', '/api/auth/mfa/totp'],
      ['DELETE', '/api/auth/mfa/totp'],
      ['POST', '/api/auth/mfa/recovery-codes'],
    ] as const) {
      const response = await browser.send(method, url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual({ error: STEP_UP_REQUIRED });
    }
    const status = await browser.send('GET', '/api/me/second-factor');
    expect(status.json().totp).toBe(true);
  });
});

describe('removing a factor, and the administrator’s reset', () => {
  it('removing the app ends the other sessions, e-mails the holder, and the next sign-in needs no code', async () => {
    const user = await staff();
    const here = await signedInBrowser(user);
    await setUpApp(here);
    const elsewhere = new Browser();
    elsewhere.cookies.set('session', here.cookies.get('session') as string);
    later(1);
    const removed = await here.send('DELETE', '/api/auth/mfa/totp');
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await elsewhere.send('GET', '/api/me')).statusCode).toBe(401);
    expect((await here.send('GET', '/api/me')).statusCode).toBe(200);
    expect((await here.send('GET', '/api/me/second-factor')).json()).toMatchObject({
      totp: false,
      recoveryCodesLeft: 0,
    });
    const kinds = (await readOutbox(t.database, t.config))
      .filter((row) => row.userId === user.id && row.kind === 'second_factor_changed')
      .map((row) => row.message?.text.split('\n')[0]);
    expect(kinds).toEqual([
      'An authenticator app was set up as a second factor for your account.',
      'The authenticator app was removed from your account.',
    ]);
    const again = await new Browser().signIn(user);
    expect(again.json().user?.id).toBe(user.id);
  });

  it('lets a BrokerAdmin reset a BrokerUser of their firm: factors gone, sessions ended, audited, e-mailed', async () => {
    const brokerId = await createBroker(t.database);
    const admin = await staff('BrokerAdmin', brokerId);
    const colleague = await staff('BrokerUser', brokerId);
    const colleagueBrowser = await signedInBrowser(colleague);
    await setUpApp(colleagueBrowser);
    const reset = await t.requestAs(admin, 'DELETE', `/api/users/${colleague.id}/second-factor`);
    expect(reset.statusCode, reset.body).toBe(204);
    expect((await colleagueBrowser.send('GET', '/api/me')).statusCode).toBe(401);
    const signIn = await new Browser().signIn(colleague);
    expect(signIn.json().user?.id).toBe(colleague.id);
    const [record] = (await ownerOf(t.database).select().from(auditLog)).filter(
      (entry) => entry.action === 'user.second_factor_reset',
    );
    expect(record).toMatchObject({
      actorId: admin.id,
      entityId: colleague.id,
      previousState: { totp: true, passkeys: 0 },
      newState: { totp: false, passkeys: 0 },
    });
    const notice = (await readOutbox(t.database, t.config)).filter(
      (row) => row.userId === colleague.id && row.kind === 'second_factor_changed',
    );
    // Set up and reset within the same instant of the test's clock: found by what it says.
    expect(notice.map((row) => row.message?.text.split('\n')[0])).toContain(
      'An administrator removed the second factors of your account, as asked when a phone or key is lost. You will set up a new one when you next sign in.',
    );
  });

  it('tells the firm’s list of accounts which have a second factor, so a reset is offered only there', async () => {
    const brokerId = await createBroker(t.database);
    const admin = await staff('BrokerAdmin', brokerId);
    const holder = await staff('BrokerUser', brokerId);
    const without = await staff('BrokerUser', brokerId);
    await setUpApp(await signedInBrowser(holder));
    const factorOf = async () => {
      const listed = await t.requestAs(admin, 'GET', '/api/users');
      expect(listed.statusCode, listed.body).toBe(200);
      const items = listed.json().items as Array<{ id: string; secondFactor: boolean }>;
      return Object.fromEntries(items.map((item) => [item.id, item.secondFactor]));
    };
    expect(await factorOf()).toMatchObject({ [holder.id]: true, [without.id]: false });
    await t.requestAs(admin, 'DELETE', `/api/users/${holder.id}/second-factor`);
    expect(await factorOf()).toMatchObject({ [holder.id]: false, [without.id]: false });
  });

  it('refuses a BrokerAdmin resetting a fellow BrokerAdmin or another firm’s account, and a BrokerUser anyone', async () => {
    const brokerId = await createBroker(t.database);
    const admin = await staff('BrokerAdmin', brokerId);
    const fellow = await staff('BrokerAdmin', brokerId);
    const outsider = await staff('BrokerUser');
    const user = await staff('BrokerUser', brokerId);
    expect(
      (await t.requestAs(admin, 'DELETE', `/api/users/${fellow.id}/second-factor`)).statusCode,
    ).toBe(403);
    expect(
      (await t.requestAs(admin, 'DELETE', `/api/users/${outsider.id}/second-factor`)).statusCode,
    ).toBe(404);
    expect(
      (await t.requestAs(user, 'DELETE', `/api/users/${admin.id}/second-factor`)).statusCode,
    ).toBe(403);
  });

  it('lets a SuperAdmin reset a BrokerAdmin', async () => {
    const superAdmin = await staff('SuperAdmin');
    const { user: admin } = await withApp('BrokerAdmin');
    const response = await t.requestAs(
      superAdmin,
      'DELETE',
      `/api/users/${admin.id}/second-factor`,
    );
    expect(response.statusCode, response.body).toBe(204);
  });

  it('refuses to reset an account that has no second factor, and records and e-mails nothing', async () => {
    const brokerId = await createBroker(t.database);
    const admin = await staff('BrokerAdmin', brokerId);
    const colleague = await staff('BrokerUser', brokerId);
    const response = await t.requestAs(admin, 'DELETE', `/api/users/${colleague.id}/second-factor`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: NO_FACTOR_TO_RESET });
    const records = (await ownerOf(t.database).select().from(auditLog)).filter(
      (entry) => entry.action === 'user.second_factor_reset' && entry.entityId === colleague.id,
    );
    expect(records).toEqual([]);
    const notices = (await readOutbox(t.database, t.config)).filter(
      (row) => row.userId === colleague.id && row.kind === 'second_factor_changed',
    );
    expect(notices).toEqual([]);
  });
});

describe('the command-line reset of a SuperAdmin', () => {
  const operator = () => ({
    database: t.database,
    audit: createAuditService({ now, chainKey: auditChainKey(t.config.secrets.AUDIT_CHAIN_KEY) }),
    outbox: createMailer({
      config: t.config,
      database: t.database,
      now,
      logger: pino({ level: 'silent' }),
    }).outbox,
    now,
    publicBaseUrl: t.config.publicBaseUrl,
  });

  it('removes a SuperAdmin’s factors, whom no one may reset through the API: sessions ended, audited, e-mailed', async () => {
    const { user, browser } = await withApp('SuperAdmin');
    await resetSuperAdminFactors(operator(), SYSTEM_ACTOR, `  ${user.email.toUpperCase()} `);
    expect((await browser.send('GET', '/api/me')).statusCode).toBe(401);
    // The password alone signs in again, to set a factor up.
    const signIn = await new Browser().signIn(user);
    expect(signIn.json().user?.id).toBe(user.id);
    const [record] = (await ownerOf(t.database).select().from(auditLog)).filter(
      (entry) => entry.action === 'user.second_factor_reset' && entry.entityId === user.id,
    );
    expect(record).toMatchObject({
      actorId: SYSTEM_ACTOR.userId,
      tenantId: null,
      previousState: { totp: true, passkeys: 0 },
      newState: { totp: false, passkeys: 0 },
    });
    const notice = (await readOutbox(t.database, t.config)).filter(
      (row) => row.userId === user.id && row.kind === 'second_factor_changed',
    );
    expect(notice.map((row) => row.message?.text.split('\n')[0])).toContain(
      'An administrator removed the second factors of your account, as asked when a phone or key is lost. You will set up a new one when you next sign in.',
    );
  });

  it('refuses any other account, or an address no account has, and changes nothing', async () => {
    const brokerId = await createBroker(t.database);
    const { user, browser } = await withApp('BrokerAdmin', brokerId);
    for (const email of [user.email, 'nobody@platform.example']) {
      await expect(resetSuperAdminFactors(operator(), SYSTEM_ACTOR, email)).rejects.toThrow(
        'No SuperAdmin account has this e-mail address',
      );
    }
    expect((await browser.send('GET', '/api/me')).statusCode).toBe(200);
    const resets = (await ownerOf(t.database).select().from(auditLog)).filter(
      (entry) => entry.action === 'user.second_factor_reset' && entry.entityId === user.id,
    );
    expect(resets).toEqual([]);
  });
});

describe('the notice of a sign-in from a new browser', () => {
  it('is e-mailed the first time a browser signs in to the account, and not again from it', async () => {
    const user = await staff();
    const notices = async () =>
      (await readOutbox(t.database, t.config)).filter(
        (row) => row.userId === user.id && row.kind === 'new_browser_signin',
      );
    const browser = new Browser();
    browser.cookies.clear();
    await browser.send('POST', '/api/auth/signin', { email: user.email, password: TEST_PASSWORD });
    expect(await notices()).toHaveLength(1);
    const [notice] = await notices();
    expect(notice?.message?.subject).toBe('New sign-in to Pension Administration');
    expect(notice?.message?.text).not.toContain(browser.address);
    await browser.send('POST', '/api/auth/signout');
    await browser.signIn(user);
    expect(await notices()).toHaveLength(1);
    await new Browser().signIn(user);
    expect(await notices()).toHaveLength(2);
  });
});

describe('a PPS key rotation', () => {
  it('re-seals authenticator-app secrets under the new key, and the app keeps working without the old one', async () => {
    const { user, secret } = await withApp();
    const newKey = 'e'.repeat(64);
    const outcome = await resealTotpSecrets(t.database, {
      current: newKey,
      previous: TEST_SECRETS.PPS_ENCRYPTION_KEY,
    });
    expect(outcome.unopened).toBe(0);
    expect(outcome.resealed).toBeGreaterThanOrEqual(1);
    const [row] = await ownerOf(t.database)
      .select()
      .from(userTotpSecrets)
      .where(eq(userTotpSecrets.userId, user.id));
    expect(row?.keyId).toBe(ppsKeyId(newKey));
    const rotated = await buildTestApp({
      database: t.database,
      now,
      env: { ...HOLD_MAIL, PPS_ENCRYPTION_KEY: newKey },
    });
    try {
      later(30);
      const address = uniqueClientAddress();
      const signIn = await rotated.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: address,
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expect(signIn.json()).toMatchObject({ mfaRequired: true });
      const challenge = signIn.cookies.find((cookie) => cookie.name === 'second-step');
      const verified = await rotated.app.inject({
        method: 'POST',
        url: '/api/auth/mfa/verify',
        remoteAddress: address,
        headers: { origin: ORIGIN },
        cookies: { 'second-step': challenge?.value ?? '' },
        payload: { code: totpAt(secret, now()) },
      });
      expect(verified.statusCode, verified.body).toBe(200);
    } finally {
      await rotated.app.close();
    }
  });
});
