import { randomInt } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';

let shared: TestDatabase;
let clock = Date.now();
beforeAll(async () => {
  shared = await openTestDatabase();
});
afterAll(() => shared.dispose());

const freshAddress = () => `203.0.${randomInt(0, 250)}.${randomInt(1, 250)}`;

async function appWith(env: Record<string, string> = {}): Promise<TestApp> {
  return buildTestApp({ database: shared.database, env, now: () => new Date(clock) });
}

async function exhaust(t: TestApp, times: number, request: InjectOptions) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) statuses.push((await t.app.inject(request)).statusCode);
  return statuses;
}

describe('rate limits (service-spec §8)', () => {
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
    clock += 60_000;
    expect((await t.app.inject({ url: '/api/health/live', remoteAddress })).statusCode).toBe(200);
  });

  it('do not count the page and its assets', async () => {
    const remoteAddress = freshAddress();
    await exhaust(t, 120, { url: '/', remoteAddress });
    expect((await t.app.inject({ url: '/api/health/live', remoteAddress })).statusCode).toBe(200);
  });

  it('allow 10 requests a minute to /api/auth/*', async () => {
    const remoteAddress = freshAddress();
    expect(new Set(await exhaust(t, 10, { url: '/api/auth/session', remoteAddress }))).toEqual(
      new Set([200]),
    );
    expect((await t.app.inject({ url: '/api/auth/session', remoteAddress })).statusCode).toBe(429);
    clock += 60_000;
    expect((await t.app.inject({ url: '/api/auth/session', remoteAddress })).statusCode).toBe(200);
  });

  it('allow 5 sign-in attempts a minute, on both sign-in paths together', async () => {
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
    clock += 60_000;
    expect((await t.app.inject(attempt('/api/auth/signin'))).statusCode).toBe(401);
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
    clock += 60_000;
    expect((await t.app.inject(request)).statusCode).toBe(429);
    clock += 4 * 60_000;
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
  const session = (remoteAddress: string) =>
    t.app.inject({ url: '/api/auth/session', remoteAddress });

  it('share one allowance across the addresses of one /64', async () => {
    const prefix = freshPrefix();
    const sameNetwork = [`${prefix}::1`, `${prefix}:ffff:ffff:ffff:fffe`, `${prefix}:0:0:0:2`];
    for (let i = 0; i < 10; i += 1) {
      expect((await session(sameNetwork[i % 3] as string)).statusCode).toBe(200);
    }
    expect((await session(`${prefix.toUpperCase()}::abcd`)).statusCode).toBe(429);
  });

  it('keep separate allowances for different /64s', async () => {
    const prefix = freshPrefix();
    for (let i = 0; i < 10; i += 1) await session(`${prefix}::${i + 1}`);
    expect((await session(`${prefix}::99`)).statusCode).toBe(429);
    const [, , third = '0', fourth = '0'] = prefix.split(':');
    const neighbour = `2001:db8:${third}:${(Number.parseInt(fourth, 16) + 1).toString(16)}::1`;
    expect((await session(neighbour)).statusCode).toBe(200);
  });

  it('count an IPv4 address written as IPv6 as that one IPv4 address', async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i += 1) await session(`::ffff:${address}`);
    expect((await session(address)).statusCode).toBe(429);
    const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
    const neighbour = `::ffff:${a}.${b}.${c}.${d === 250 ? 249 : d + 1}`;
    expect((await session(neighbour)).statusCode).toBe(200);
  });
});

describe('behind a trusted proxy', () => {
  it('count the right-most address the proxy did not add', async () => {
    const t = await appWith({ TRUST_PROXY: '10.0.0.0/8' });
    try {
      const via = (forwardedFor: string) =>
        t.app.inject({
          url: '/api/auth/session',
          remoteAddress: '10.0.0.5',
          headers: { 'x-forwarded-for': forwardedFor },
        });
      for (let i = 0; i < 10; i += 1) await via('192.0.2.10');
      expect((await via('192.0.2.10')).statusCode).toBe(429);
      expect((await via('192.0.2.11')).statusCode).toBe(200);
      // A client-supplied entry to the left of the real one changes nothing.
      expect((await via('192.0.2.99, 192.0.2.10')).statusCode).toBe(429);
      expect((await via('192.0.2.10, 10.0.0.9')).statusCode).toBe(429);
    } finally {
      await t.app.close();
    }
  });
});

describe('with Redis unreachable', () => {
  it('serve requests uncounted and log the fault, rather than fail', async () => {
    const t = await appWith({ REDIS_URL: 'redis://127.0.0.1:9' });
    try {
      const response = await t.app.inject({
        url: '/api/health/live',
        remoteAddress: freshAddress(),
      });
      expect(response.statusCode).toBe(200);
      expect(t.logs.text()).toContain('rate-limit store unavailable');
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
      const statuses = [
        ...(await exhaust(first, 6, { url: '/api/auth/session', remoteAddress })),
        ...(await exhaust(second, 4, { url: '/api/auth/session', remoteAddress })),
      ];
      expect(new Set(statuses)).toEqual(new Set([200]));
      expect((await first.app.inject({ url: '/api/auth/session', remoteAddress })).statusCode).toBe(
        429,
      );
      expect(
        (await second.app.inject({ url: '/api/auth/session', remoteAddress })).statusCode,
      ).toBe(429);
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });
});
