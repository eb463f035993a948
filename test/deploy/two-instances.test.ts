import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_FAILURES_PER_MINUTE } from '../../src/server/platform/http/rate-limits.js';
import { type BuiltServer, DEV_ACCOUNTS, startBuiltServer } from '../helpers/built-server.js';
import { inOneClockMinute } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import {
  freePort,
  nginxConfigFromShipped,
  nginxSkipReason,
  type ProxiedAnswer,
  proxyRequest,
  type RunningNginx,
  startNginx,
} from '../helpers/deploy.js';
import { selfSignedCertificate } from '../helpers/tls.js';

/**
 * Several instances: two built servers sharing one PostgreSQL database and one Redis,
 * behind nginx configured from deploy/nginx. A session from one works on the other, and the
 * sign-in limit is one count across both, kept per client address as nginx forwards it.
 */

const skipReason =
  nginxSkipReason ??
  (!process.env.DATABASE_URL || !process.env.REDIS_URL
    ? 'two-instance test skipped: it needs DATABASE_URL and REDIS_URL (PGlite is one process’s database)'
    : null);
if (skipReason) console.warn(skipReason);

const SIGN_IN_LIMIT = SIGN_IN_FAILURES_PER_MINUTE;
/** A loopback address of its own per run, so counters a shared Redis kept from a run before do not count. */
const loopbackClient = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

describe.skipIf(skipReason)('two instances behind nginx', { timeout: 120_000 }, () => {
  let shared: TestDatabase;
  const instances: BuiltServer[] = [];
  let nginx: RunningNginx;
  let httpsPort: number;
  const upstreamOf = new Map<string, 'A' | 'B'>();

  beforeAll(async () => {
    shared = await openTestDatabase();
    const env = {
      ...TEST_SECRETS,
      DATABASE_URL: shared.url as string,
      REDIS_URL: process.env.REDIS_URL as string,
      ...(process.env.DATABASE_RUNTIME_PASSWORD
        ? { DATABASE_RUNTIME_PASSWORD: process.env.DATABASE_RUNTIME_PASSWORD }
        : {}),
    };
    // One after the other: the first creates the development accounts the second then finds.
    instances.push(await startBuiltServer(env));
    instances.push(await startBuiltServer(env));
    instances.forEach((instance, index) => {
      upstreamOf.set(new URL(instance.baseUrl).host, index === 0 ? 'A' : 'B');
    });
    httpsPort = await freePort();
    const setup = nginxConfigFromShipped({
      httpPort: await freePort(),
      httpsPort,
      upstreams: instances.map((instance) => new URL(instance.baseUrl).host),
      certificate: selfSignedCertificate(),
      // Which instance answered: the test's own diagnostic, not part of the shipped file.
      extraServerLines: ['add_header X-Test-Upstream $upstream_addr always;'],
    });
    nginx = await startNginx(setup, httpsPort);
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await shared?.dispose();
  });

  const instanceOf = (answer: ProxiedAnswer) =>
    upstreamOf.get(String(answer.headers['x-test-upstream']));

  const signIn = (client: string, headers: Record<string, string> = {}, password?: string) =>
    proxyRequest({
      port: httpsPort,
      tls: true,
      method: 'POST',
      path: '/api/auth/signin',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ ...DEV_ACCOUNTS.brokerAdmin, ...(password ? { password } : {}) }),
      localAddress: client,
    });
  /** A sign-in with the wrong password: what the per-address limit counts. */
  const guess = (client: string, headers: Record<string, string> = {}) =>
    signIn(client, headers, 'not the right password');

  it('a session begun on one instance is honoured by the other', async () => {
    const client = loopbackClient();
    const signedIn = await signIn(client);
    expect(signedIn.status).toBe(200);
    const token = /session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1];
    expect(token).toBeDefined();
    const first = instanceOf(signedIn);
    expect(first).toBeDefined();
    let answer: ProxiedAnswer | null = null;
    // nginx takes turns between the instances; a few requests reach the other one.
    for (let attempt = 0; attempt < 4 && (!answer || instanceOf(answer) === first); attempt++) {
      answer = await proxyRequest({
        port: httpsPort,
        tls: true,
        path: '/api/employers',
        headers: { authorization: `Bearer ${token}` },
        localAddress: client,
      });
    }
    expect(instanceOf(answer as ProxiedAnswer)).not.toBe(first);
    expect(answer?.status).toBe(200);
  });

  it('counts failed sign-ins once across both instances, per client address nginx forwards', async () => {
    expect(SIGN_IN_LIMIT).toBe(5);
    await inOneClockMinute(30_000);
    const client = loopbackClient();
    const failed = await Promise.all(Array.from({ length: SIGN_IN_LIMIT }, () => guess(client)));
    expect(failed.map((answer) => answer.status)).toEqual(Array(SIGN_IN_LIMIT).fill(401));
    // Both instances counted some of them: neither alone reached the limit.
    expect(new Set(failed.map(instanceOf))).toEqual(new Set(['A', 'B']));
    const refused = [await guess(client), await signIn(client)];
    expect(refused.map((answer) => answer.status)).toEqual([429, 429]);
    expect(new Set(refused.map(instanceOf))).toEqual(new Set(['A', 'B']));
    // An address the client claims is replaced by nginx: it does not reopen the allowance.
    const spoofed = await guess(client, { 'x-forwarded-for': loopbackClient() });
    expect(spoofed.status).toBe(429);
    // Another client behind the same nginx has its own allowance: the limit counts the
    // forwarded address (TRUST_PROXY names nginx), not nginx's own.
    expect((await guess(loopbackClient())).status).toBe(401);
  });
});
