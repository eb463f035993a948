import { randomInt } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PER_OFFICE_PER_MINUTE,
  PER_USER_PER_MINUTE,
  SIGN_IN_FAILURES_PER_MINUTE,
} from '../../src/server/platform/http/rate-limits.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createBroker, createUser, TEST_PASSWORD } from '../helpers/factories.js';

let shared: TestDatabase;
beforeAll(async () => {
  // @fastify/rate-limit's windows run on Date.now(): the suite moves that clock, and only that.
  vi.useFakeTimers({ toFake: ['Date'] });
  shared = await openTestDatabase();
});
afterAll(async () => {
  vi.useRealTimers();
  await shared.dispose();
});
/** Moves the clock the limits and the tokens read. */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

const freshAddress = () => `203.0.${randomInt(0, 250)}.${randomInt(1, 250)}`;

async function appWith(env: Record<string, string> = {}): Promise<TestApp> {
  return buildTestApp({ database: shared.database, env, now: () => new Date() });
}

/** An authentication attempt that fails (400) and costs the 10-a-minute allowance of /api/auth/*. */
const AUTH_ATTEMPT = {
  method: 'POST',
  url: '/api/auth/reset-password',
  payload: { token: 'not-a-token', password: 'a new passphrase of some length' },
} as const;

async function exhaust(t: TestApp, times: number, request: InjectOptions) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) statuses.push((await t.app.inject(request)).statusCode);
  return statuses;
}

describe('rate limits (docs/api.md, "Rate limits")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith();
  });
  afterAll(() => t.app.close());

  it('allow 100 API requests a minute per IP, then answer 429 with Retry-After until the minute is over', async () => {
    const remoteAddress = freshAddress();
    const statuses = await exhaust(t, 100, { url: '/api/health/live', remoteAddress });
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await t.app.inject({ url: '/api/health/live', remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['x-frame-options']).toBe('DENY');
    expect(
      (await t.app.inject({ url: '/api/health/live', remoteAddress: freshAddress() })).statusCode,
    ).toBe(200);
    advance(60_000);
    expect((await t.app.inject({ url: '/api/health/live', remoteAddress })).statusCode).toBe(200);
  });

  it('do not count the page and its assets', async () => {
    const remoteAddress = freshAddress();
    await exhaust(t, 120, { url: '/', remoteAddress });
    expect((await t.app.inject({ url: '/api/health/live', remoteAddress })).statusCode).toBe(200);
  });

  it('allow 10 authentication attempts a minute under /api/auth/*', async () => {
    const remoteAddress = freshAddress();
    const attempt: InjectOptions = { ...AUTH_ATTEMPT, remoteAddress };
    expect(new Set(await exhaust(t, 10, attempt))).toEqual(new Set([400]));
    expect((await t.app.inject(attempt)).statusCode).toBe(429);
    advance(60_000);
    expect((await t.app.inject(attempt)).statusCode).toBe(400);
  });

  it('never count reading one’s own session as an authentication attempt', async () => {
    const user = await createUser(shared.database);
    const authorization = `Bearer ${await t.tokenFor(user)}`;
    const remoteAddress = freshAddress();
    // Thirty page loads in a minute, each reading the session: every one answered, signed in.
    for (let load = 0; load < 30; load += 1) {
      const response = await t.app.inject({
        url: '/api/auth/session',
        headers: { authorization },
        remoteAddress,
      });
      expect(response.statusCode, `load ${load + 1}`).toBe(200);
      expect(response.json().user?.id).toBe(user.id);
    }
    // And the address still has its whole sign-in allowance.
    const signIns = await exhaust(t, 5, {
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'nobody@example.ie', password: 'wrong password' },
      remoteAddress,
    });
    expect(new Set(signIns)).toEqual(new Set([401]));
  });

  it('count signed-in traffic per user: one user’s 601st request is refused, a colleague at the same address goes on', async () => {
    const brokerId = await createBroker(shared.database);
    const [busy, colleague] = await Promise.all([
      createUser(shared.database, { brokerId, role: 'BrokerUser' }),
      createUser(shared.database, { brokerId, role: 'BrokerUser' }),
    ]);
    const office = freshAddress();
    const as = async (user: typeof busy): Promise<InjectOptions> => ({
      url: '/api/me',
      headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
      remoteAddress: office,
    });
    // Reading one's own session, as every page load does, uses none of the allowance.
    const sessionReads = await exhaust(t, 120, {
      ...(await as(busy)),
      url: '/api/auth/session',
    });
    expect(new Set(sessionReads)).toEqual(new Set([200]));
    expect(PER_USER_PER_MINUTE).toBe(600);
    expect(new Set(await exhaust(t, PER_USER_PER_MINUTE, await as(busy)))).toEqual(new Set([200]));
    const refused = await t.app.inject(await as(busy));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.app.inject(await as(colleague))).statusCode).toBe(200);
    advance(60_000);
    expect((await t.app.inject(await as(busy))).statusCode).toBe(200);
  }, 180_000);

  it('hold signed-in traffic from one address to an office-sized 3,000 a minute', async () => {
    const brokerId = await createBroker(shared.database);
    const office = freshAddress();
    const each = PER_USER_PER_MINUTE - 10;
    const people = Math.ceil((PER_OFFICE_PER_MINUTE + 1) / each);
    const colleagues = await Promise.all(
      Array.from({ length: people }, () =>
        createUser(shared.database, { brokerId, role: 'BrokerUser' }),
      ),
    );
    const statuses: number[] = [];
    for (const colleague of colleagues) {
      const request = {
        url: '/api/health/live',
        headers: { authorization: `Bearer ${await t.tokenFor(colleague)}` },
        remoteAddress: office,
      };
      statuses.push(...(await exhaust(t, each, request)));
    }
    // Each colleague stays under their own allowance; the address reaches its ceiling.
    expect(statuses.filter((status) => status === 200)).toHaveLength(PER_OFFICE_PER_MINUTE);
    expect(statuses.at(-1)).toBe(429);
    // Anonymous traffic from elsewhere is untouched, and a token alone never lifts the anonymous
    // limit of 100: one that does not verify is counted as anonymous.
    const forged = await exhaust(t, 101, {
      url: '/api/schemes',
      headers: { authorization: 'Bearer not.a.token' },
      remoteAddress: freshAddress(),
    });
    expect(forged.slice(0, 100)).toEqual(Array(100).fill(401));
    expect(forged[100]).toBe(429);
  }, 300_000);

  it('allow 5 failed sign-in attempts a minute, on both sign-in paths together', async () => {
    const remoteAddress = freshAddress();
    const attempt = (url: string) => ({
      method: 'POST' as const,
      url,
      remoteAddress,
      payload: { email: 'x@example.ie', password: 'wrong password here' },
    });
    const statuses = [
      ...(await exhaust(t, 3, attempt('/api/auth/signin'))),
      ...(await exhaust(t, 2, attempt('/api/auth/callback/credentials'))),
    ];
    expect(new Set(statuses)).toEqual(new Set([401]));
    const refused = await t.app.inject(attempt('/api/auth/signin'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    advance(60_000);
    expect((await t.app.inject(attempt('/api/auth/signin'))).statusCode).toBe(401);
  });

  it('accept an office’s 6th to 20th correct sign-in from one address in a minute, and still refuse its 6th failed one', async () => {
    const brokerId = await createBroker(shared.database);
    const office = freshAddress();
    const staff = await Promise.all(
      Array.from({ length: 20 }, () =>
        createUser(shared.database, { brokerId, role: 'BrokerUser' }),
      ),
    );
    const signIn = (email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: office,
        payload: { email, password },
      });
    for (const [index, person] of staff.entries()) {
      const answer = await signIn(person.email, TEST_PASSWORD);
      expect(answer.statusCode, `sign-in ${index + 1}`).toBe(200);
    }
    // Mistypes from the same address, in the same minute: five are told "wrong", the sixth waits.
    for (let failure = 1; failure <= SIGN_IN_FAILURES_PER_MINUTE; failure += 1) {
      const answer = await signIn(staff[failure]?.email ?? '', 'not the password at all');
      expect(answer.statusCode, `failure ${failure}`).toBe(401);
    }
    expect((await signIn(staff[0]?.email ?? '', 'not the password at all')).statusCode).toBe(429);
    // ... and so does a correct one: the address is refused until the minute is over.
    expect((await signIn(staff[1]?.email ?? '', TEST_PASSWORD)).statusCode).toBe(429);
    advance(60_000);
    expect((await signIn(staff[1]?.email ?? '', TEST_PASSWORD)).statusCode).toBe(200);
  }, 180_000);

  it('refuse a burst of guesses sent at once from its sixth, answered or not', async () => {
    const remoteAddress = freshAddress();
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          remoteAddress,
          payload: { email: `guess-${n}@example.ie`, password: 'a guess at a password' },
        }),
      ),
    );
    const statuses = burst.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it('allow 3 forgot-password requests per 5 minutes', async () => {
    const remoteAddress = freshAddress();
    const request = {
      method: 'POST' as const,
      url: '/api/auth/forgot-password',
      remoteAddress,
      payload: { email: 'x@example.ie' },
    };
    await exhaust(t, 3, request);
    expect((await t.app.inject(request)).statusCode).toBe(429);
    advance(60_000);
    expect((await t.app.inject(request)).statusCode).toBe(429);
    advance(4 * 60_000);
    expect((await t.app.inject(request)).statusCode).not.toBe(429);
  });

  it('ignore X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < 100; i += 1) {
      await t.app.inject({
        url: '/api/health/live',
        remoteAddress,
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
    }
    const forged = await t.app.inject({
      url: '/api/health/live',
      remoteAddress,
      headers: { 'x-forwarded-for': '198.51.100.250' },
    });
    expect(forged.statusCode).toBe(429);
  });
});

describe('clients on IPv6', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith();
  });
  afterAll(() => t.app.close());

  const freshPrefix = () =>
    `2001:db8:${randomInt(0, 0xffff).toString(16)}:${randomInt(0, 0xfffe).toString(16)}`;
  const session = (remoteAddress: string) => t.app.inject({ ...AUTH_ATTEMPT, remoteAddress });

  it('share one allowance across the addresses of one /64', async () => {
    const prefix = freshPrefix();
    const sameNetwork = [`${prefix}::1`, `${prefix}:ffff:ffff:ffff:fffe`, `${prefix}:0:0:0:2`];
    for (let i = 0; i < 10; i += 1) {
      expect((await session(sameNetwork[i % 3] as string)).statusCode).toBe(400);
    }
    expect((await session(`${prefix.toUpperCase()}::abcd`)).statusCode).toBe(429);
  });

  it('keep separate allowances for different /64s', async () => {
    const prefix = freshPrefix();
    for (let i = 0; i < 10; i += 1) await session(`${prefix}::${i + 1}`);
    expect((await session(`${prefix}::99`)).statusCode).toBe(429);
    const [, , third = '0', fourth = '0'] = prefix.split(':');
    const neighbour = `2001:db8:${third}:${(Number.parseInt(fourth, 16) + 1).toString(16)}::1`;
    expect((await session(neighbour)).statusCode).toBe(400);
  });

  it('count an IPv4 address written as IPv6 as that one IPv4 address', async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i += 1) await session(`::ffff:${address}`);
    expect((await session(address)).statusCode).toBe(429);
    const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
    const neighbour = `::ffff:${a}.${b}.${c}.${d === 250 ? 249 : d + 1}`;
    expect((await session(neighbour)).statusCode).toBe(400);
  });
});

describe('behind a trusted proxy', () => {
  it('count the right-most address the proxy did not add', async () => {
    const t = await appWith({ TRUST_PROXY: '10.0.0.0/8' });
    try {
      const via = (forwardedFor: string) =>
        t.app.inject({
          ...AUTH_ATTEMPT,
          remoteAddress: '10.0.0.5',
          headers: { 'x-forwarded-for': forwardedFor },
        });
      for (let i = 0; i < 10; i += 1) await via('192.0.2.10');
      expect((await via('192.0.2.10')).statusCode).toBe(429);
      expect((await via('192.0.2.11')).statusCode).toBe(400);
      // A client-supplied entry to the left of the real one changes nothing.
      expect((await via('192.0.2.99, 192.0.2.10')).statusCode).toBe(429);
      expect((await via('192.0.2.10, 10.0.0.9')).statusCode).toBe(429);
    } finally {
      await t.app.close();
    }
  });
});

describe('with Redis unreachable', () => {
  it('serve requests, counting them in this instance alone, and log the fault rather than fail', async () => {
    const t = await appWith({ REDIS_URL: 'redis://127.0.0.1:9' });
    try {
      const response = await t.app.inject({
        url: '/api/health/live',
        remoteAddress: freshAddress(),
      });
      expect(response.statusCode).toBe(200);
      expect(t.logs.text()).toContain(
        'rate-limit store unavailable: counted by this instance alone',
      );
    } finally {
      await t.app.close();
    }
  });

  it('still refuse the 6th sign-in attempt of a minute: the limit never fails open', async () => {
    const t = await appWith({ REDIS_URL: 'redis://127.0.0.1:9' });
    try {
      const attempt = {
        method: 'POST' as const,
        url: '/api/auth/signin',
        remoteAddress: freshAddress(),
        payload: { email: 'x@example.ie', password: 'wrong password here' },
      };
      expect(await exhaust(t, 5, attempt)).toEqual(Array(5).fill(401));
      expect((await t.app.inject(attempt)).statusCode).toBe(429);
    } finally {
      await t.app.close();
    }
  });
});

describe.runIf(process.env.REDIS_URL)('with REDIS_URL', () => {
  it('share one counter between two instances of the service', async () => {
    const redisUrl = process.env.REDIS_URL as string;
    const [first, second] = [
      await appWith({ REDIS_URL: redisUrl }),
      await appWith({ REDIS_URL: redisUrl }),
    ];
    try {
      const remoteAddress = freshAddress();
      const attempt = { ...AUTH_ATTEMPT, remoteAddress };
      const statuses = [
        ...(await exhaust(first, 6, attempt)),
        ...(await exhaust(second, 4, attempt)),
      ];
      expect(new Set(statuses)).toEqual(new Set([400]));
      expect((await first.app.inject(attempt)).statusCode).toBe(429);
      expect((await second.app.inject(attempt)).statusCode).toBe(429);
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });
});
