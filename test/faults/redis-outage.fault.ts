import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_FAILURES_PER_MINUTE } from '../../src/server/platform/http/rate-limits.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import { inOneClockMinute, uniqueClientAddress } from '../helpers/clients.js';
import { type Deployment, faultSkipReason, loopbackClient, startDeployment } from './processes.js';

/**
 * Redis down (docs/faults.md, "Redis down"). docs/decisions/0019-rate-limits.md
 * decides that while Redis is unreachable each instance counts in its own
 * memory: every limit holds per instance, none fails open, and each request so counted is logged,
 * so the outage is never silent. Once Redis is back, the counts are one across both instances.
 */

if (faultSkipReason) console.warn(faultSkipReason);

const SIGN_IN_LIMIT = SIGN_IN_FAILURES_PER_MINUTE;
const UNCOUNTED = /rate-limit store unavailable: counted by this instance alone/g;

describe.skipIf(faultSkipReason)('Redis down', () => {
  let deployment: Deployment;
  let probe: Redis;

  beforeAll(async () => {
    deployment = await startDeployment();
    probe = new Redis(deployment.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    probe?.disconnect();
    await deployment?.dispose();
  });

  /** A sign-in with the wrong password: what the per-address limit counts. */
  const signIn = (localAddress: string) =>
    deployment.request({
      method: 'POST',
      path: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...DEV_ACCOUNTS.brokerAdmin, password: 'not the right password' }),
      localAddress,
    });

  const uncountedLogged = () =>
    deployment.instances.reduce(
      (sum, instance) => sum + (instance.output().match(UNCOUNTED)?.length ?? 0),
      0,
    );

  /** Both instances count in Redis again: a request from a new address opens a new key there. */
  async function countingAgain(): Promise<boolean> {
    await probe.connect();
    try {
      for (const instance of deployment.instances) {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const before = await probe.dbsize();
          await fetch(`${instance.baseUrl}/api/health/live`, {
            headers: { 'x-forwarded-for': uniqueClientAddress() },
          });
          if ((await probe.dbsize()) > before) break;
          if (Date.now() > deadline) return false;
          await sleep(250);
        }
      }
      return true;
    } finally {
      probe.disconnect();
    }
  }

  it('holds each instance to the sign-in limit and logs every request while Redis is down, and counts once across both when it returns', async () => {
    expect(SIGN_IN_LIMIT).toBe(5);
    await deployment.redis.stop();

    // Each instance counts alone: from one address, at most the limit per instance is served,
    // the rest refused, never all of them; and every request counted so is logged.
    const loggedBefore = uncountedLogged();
    await inOneClockMinute(40_000);
    const client = loopbackClient();
    const attempts = 2 * SIGN_IN_LIMIT + 2;
    const during = [];
    for (let attempt = 0; attempt < attempts; attempt++) during.push(await signIn(client));
    const statuses = during.map((answer) => answer.status);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(
      2 * SIGN_IN_LIMIT,
    );
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(2);
    expect(new Set(during.map((answer) => answer.headers['x-test-upstream'])).size).toBe(2);
    // The log reaches the pipe a moment after the answer: wait for it, briefly.
    const deadline = Date.now() + 5_000;
    while (uncountedLogged() - loggedBefore < attempts && Date.now() < deadline) {
      await sleep(100);
    }
    expect(uncountedLogged() - loggedBefore).toBeGreaterThanOrEqual(attempts);

    await deployment.redis.start();
    expect(await countingAgain()).toBe(true);

    // Shared again: the sign-in limit is one count across both instances.
    await inOneClockMinute(30_000);
    const another = loopbackClient();
    const allowed = await Promise.all(Array.from({ length: SIGN_IN_LIMIT }, () => signIn(another)));
    expect(allowed.map((answer) => answer.status)).toEqual(Array(SIGN_IN_LIMIT).fill(401));
    const refused = [await signIn(another), await signIn(another)];
    expect(refused.map((answer) => answer.status)).toEqual([429, 429]);
    expect(new Set(refused.map((answer) => answer.headers['x-test-upstream'])).size).toBe(2);
  });
});
