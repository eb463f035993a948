import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { POLICY } from '../../src/contracts/policy.js';
import {
  ACTIONS_BEFORE_SECOND_FACTOR,
  SECOND_FACTOR_SETUP_REQUIRED,
} from '../../src/contracts/second-factor.js';
import { base32Decode, totpAt } from '../../src/server/modules/auth/totp.rules.js';
import { loadConfig } from '../../src/server/platform/config/config.js';
import { ACTION_EXTENSION } from '../../src/server/platform/http/route-actions.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS, testDataDir } from '../helpers/config.js';
import {
  createEmployer,
  createMember,
  createScheme,
  createUser,
  TEST_PASSWORD,
} from '../helpers/factories.js';

/**
 * MFA_REQUIRED_ROLES (docs/decisions/0112-second-factor-required-roles.md): in
 * production, a staff account without a second factor is signed in only to set one up, and
 * reaches no data at all until it has.
 */

const ORIGIN = 'https://pensions.example.ie';

let production: TestApp;
beforeAll(async () => {
  // Every documented route is tried as one person, more than a minute's allowance: this file is
  // about the second factor, not the limits.
  production = await buildTestApp({
    env: { APP_ENV: 'production', TRUST_PROXY: '127.0.0.1' },
    counters: uncountedStore(),
  });
});
afterAll(() => production.close());

/** A browser behind the deployment's proxy, over HTTPS, with the cookies the service sets. */
class Browser {
  readonly address = uniqueClientAddress();
  readonly cookies = new Map<string, string>();

  async send(method: InjectOptions['method'], url: string, payload?: object) {
    const response: LightMyRequestResponse = await production.app.inject({
      method,
      url,
      remoteAddress: '127.0.0.1',
      headers: { origin: ORIGIN, 'x-forwarded-proto': 'https', 'x-forwarded-for': this.address },
      cookies: Object.fromEntries(this.cookies),
      ...(payload === undefined ? {} : { payload }),
    });
    for (const cookie of response.cookies as Array<{ name: string; value: string }>) {
      if (cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }
}

/** Every documented route behind the session gate, with a placeholder for each parameter. */
function documentedRoutes(): Array<{ method: string; url: string; action: string }> {
  const spec = production.app.swagger() as {
    paths: Record<string, Record<string, { [ACTION_EXTENSION]?: string }>>;
  };
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => operation[ACTION_EXTENSION] !== undefined)
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        url: path.replace(/\{[^}]+\}/g, 'placeholder0id'),
        action: operation[ACTION_EXTENSION] as string,
      })),
  );
}

describe('MFA_REQUIRED_ROLES', () => {
  it('defaults to SuperAdmin, BrokerAdmin and BrokerUser in staging and production, none in development and test', () => {
    const base = { DATA_DIR: testDataDir(), ...TEST_SECRETS };
    const strict = {
      APP_BASE_URL: ORIGIN,
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'x@example.ie',
      DOCUMENT_SCAN: 'off',
      AI_PROVIDER: 'none',
    };
    for (const appEnv of ['staging', 'production']) {
      expect(
        loadConfig({ ...base, ...strict, APP_ENV: appEnv }).secondFactor.requiredRoles,
      ).toEqual(['SuperAdmin', 'BrokerAdmin', 'BrokerUser']);
    }
    for (const appEnv of ['development', 'test']) {
      expect(loadConfig({ ...base, APP_ENV: appEnv }).secondFactor.requiredRoles).toEqual([]);
    }
    expect(
      loadConfig({ ...base, ...strict, APP_ENV: 'production', MFA_REQUIRED_ROLES: 'none' })
        .secondFactor.requiredRoles,
    ).toEqual([]);
    expect(
      loadConfig({ ...base, APP_ENV: 'test', MFA_REQUIRED_ROLES: 'Member, EmployerAdmin' })
        .secondFactor.requiredRoles,
    ).toEqual(['Member', 'EmployerAdmin']);
    expect(() => loadConfig({ ...base, APP_ENV: 'test', MFA_REQUIRED_ROLES: 'Admin' })).toThrow(
      /MFA_REQUIRED_ROLES must be none or a comma-separated list/,
    );
  });
});

describe('a staff account without a second factor, in production', () => {
  it('is signed in only to set one up: every data route refuses it, its own account does not', async () => {
    const user = await createUser(production.database, { role: 'BrokerUser' });
    const browser = new Browser();
    const signedIn = await browser.send('POST', '/api/auth/signin', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      user: { id: user.id },
      secondFactorSetupRequired: true,
    });
    expect((await browser.send('GET', '/api/auth/session')).json()).toMatchObject({
      secondFactorSetupRequired: true,
    });

    const routes = documentedRoutes();
    const data = routes.filter(
      (route) => !ACTIONS_BEFORE_SECOND_FACTOR.has(route.action as keyof typeof POLICY),
    );
    expect(data.length).toBeGreaterThan(80);
    const reached: string[] = [];
    for (const route of data) {
      const response = await browser.send(route.method as InjectOptions['method'], route.url);
      if (response.statusCode !== 403 || response.json().error !== SECOND_FACTOR_SETUP_REQUIRED) {
        reached.push(`${route.method} ${route.url}: ${response.statusCode}`);
      }
    }
    expect(reached).toEqual([]);
    // A path no route serves is refused the same way.
    expect((await browser.send('GET', '/api/no-such-thing')).statusCode).toBe(403);
    // Its own account and its sign-in are open to it.
    expect((await browser.send('GET', '/api/me')).statusCode).toBe(200);
    const status = await browser.send('GET', '/api/me/second-factor');
    expect(status.json()).toMatchObject({ required: true, totp: false, passkeys: [] });
  });

  it('reaches its data once it has set up an authenticator app', async () => {
    const user = await createUser(production.database, { role: 'BrokerAdmin' });
    const brokerId = user.brokerId as string;
    const employerId = await createEmployer(production.database, brokerId);
    const schemeId = await createScheme(production.database, { id: employerId, brokerId });
    const member = await createMember(production.database, { brokerId, employerId, schemeId });
    const browser = new Browser();
    await browser.send('POST', '/api/auth/signin', { email: user.email, password: TEST_PASSWORD });
    expect((await browser.send('GET', '/api/schemes')).statusCode).toBe(403);

    const started = await browser.send('POST', '/api/auth/mfa/totp');
    expect(started.statusCode, started.body).toBe(200);
    const secret = base32Decode(started.json().secret);
    const confirmed = await browser.send('POST', '/api/auth/mfa/totp/confirm', {
      code: totpAt(secret, new Date()),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(browser.cookies.has('__Host-session')).toBe(true);
    expect((await browser.send('GET', '/api/auth/session')).json()).not.toHaveProperty(
      'secondFactorSetupRequired',
    );
    expect((await browser.send('GET', '/api/schemes')).statusCode).toBe(200);
    // The factor was proved a moment ago: a PPS number can be revealed at once.
    const revealed = await browser.send('POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(revealed.statusCode, revealed.body).toBe(200);

    // Its next sign-in asks for the second step.
    const next = new Browser();
    const answer = await next.send('POST', '/api/auth/signin', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(answer.json()).toEqual({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    expect([...next.cookies.keys()]).toEqual(['__Host-second-step']);
  });

  it('holds no one else back: a Member signs in to their data with a password alone', async () => {
    const member = await createUser(production.database, { role: 'Member' });
    const browser = new Browser();
    const signedIn = await browser.send('POST', '/api/auth/signin', {
      email: member.email,
      password: TEST_PASSWORD,
    });
    expect(signedIn.json()).not.toHaveProperty('secondFactorSetupRequired');
    const own = await browser.send('GET', `/api/members/${member.memberId}`);
    expect(own.statusCode).toBe(200);
  });
});
