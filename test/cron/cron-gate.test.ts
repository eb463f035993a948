import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BEARER_FAILURES } from '../../src/server/modules/cron/cron.routes.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { rawRequest } from '../helpers/raw-http.js';
import { CRON_BEARER, callJob, recordingJob, runsInDatabase } from './helpers.js';

/**
 * POST /api/cron/<job> (docs/decisions/0057-scheduled-jobs.md): no session, the CRON_SECRET bearer
 * instead, checked before anything else happens, whatever form the request target takes.
 */

let shared: TestDatabase;
let t: TestApp;
let port: number;
const probe = recordingJob('probe');

beforeAll(async () => {
  shared = await openTestDatabase();
  t = await buildTestApp({
    database: shared.database,
    // Raw requests all come from 127.0.0.1: each names its client in X-Forwarded-For instead.
    env: { TRUST_PROXY: '127.0.0.1' },
    extend: (app) => app.scheduledJobs.add(probe.job),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t.close();
  await shared.dispose();
});

async function expectNothingRan() {
  expect(probe.runs).toEqual([]);
  expect(await runsInDatabase(t)).toEqual([]);
}

function sendRaw(target: string, { bearer = '', body = '' }: { bearer?: string; body?: string }) {
  const head = [
    `POST ${target} HTTP/1.1`,
    'Host: localhost',
    'Connection: close',
    `X-Forwarded-For: ${uniqueClientAddress()}`,
    ...(bearer ? [`Authorization: ${bearer}`] : []),
    ...(body ? ['Content-Type: application/json'] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ].join('\r\n');
  return rawRequest(port, `${head}\r\n\r\n${body}`);
}

describe('the cron bearer', () => {
  const wrong: Array<[string, string | null]> = [
    ['missing', null],
    ['empty', 'Bearer '],
    ['another secret of the same length', `Bearer ${'x'.repeat(TEST_SECRETS.CRON_SECRET.length)}`],
    ['the secret with a character missing', `Bearer ${TEST_SECRETS.CRON_SECRET.slice(0, -1)}`],
    ['the secret with a character more', `Bearer ${TEST_SECRETS.CRON_SECRET}x`],
    ['the secret under another scheme', `Basic ${TEST_SECRETS.CRON_SECRET}`],
    ['the secret alone', TEST_SECRETS.CRON_SECRET],
    ['the secret of another service', `Bearer ${TEST_SECRETS.RAG_INGEST_SECRET}`],
    ['a very long one', `Bearer ${'a'.repeat(8_000)}`],
  ];
  for (const [what, authorization] of wrong) {
    it(`refuses a bearer that is ${what} with 401, running nothing and recording nothing`, async () => {
      const response = await callJob(t, 'probe', { authorization });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
      await expectNothingRan();
    });
  }

  it('is checked before the job name, the query or the body is looked at', async () => {
    for (const [target, body] of [
      ['/api/cron/no-such-job', ''],
      ['/api/cron/probe?scheduledFor=yesterday', ''],
      ['/api/cron/probe', '{"not json'],
      ['/api/cron/probe', JSON.stringify({ padding: 'x'.repeat(4_000) })],
    ] as const) {
      const response = await sendRaw(target, { body });
      expect({ target, status: response.statusCode }).toEqual({ target, status: 401 });
      expect(JSON.parse(response.body)).toEqual({ error: 'Unauthorized' });
    }
    await expectNothingRan();
  });

  it('guards the route whatever form or encoding the request target takes', async () => {
    const targets = [
      'http://localhost/api/cron/probe',
      'HTTP://EVIL.EXAMPLE/api/cron/probe',
      'https://evil.example:8443/api/cron/probe?scheduledFor=2026-01-01T00:00:00Z',
      '*api/cron/probe',
      '/api/cron/%70robe',
      '/api/%63ron/probe',
      '/api/cron/probe%2F',
      '/api//cron/probe',
      '/api/cron//probe',
      '/api/cron/probe/',
      '/api/cron/./probe',
      '/api/cron/x/../probe',
      '/api/cron/probe;x=1',
      '/API/cron/probe',
      '/api/Cron/probe',
      '/api/cron/%2570robe',
      '/api/cron/probe%00',
    ];
    for (const target of targets) {
      const response = await sendRaw(target, {});
      expect({ target, status: response.statusCode }).toEqual({ target, status: 401 });
    }
    await expectNothingRan();
    // The same forms with the bearer reach the job or nothing: never another route.
    const absolute = await sendRaw('http://evil.example/api/cron/probe', { bearer: CRON_BEARER });
    expect(absolute.statusCode).toBe(200);
    expect(probe.runs).toHaveLength(1);
  });

  it('answers an unknown job with 404 once the bearer is right, and a name no job could have with 400, recording nothing', async () => {
    const before = (await runsInDatabase(t)).length;
    for (const job of ['no-such-job', 'constructor', 'outbox-2']) {
      const response = await callJob(t, job);
      expect({ job, status: response.statusCode }).toEqual({ job, status: 404 });
      expect(response.json()).toEqual({ error: 'Not found' });
    }
    for (const job of ['__proto__', 'toString', 'PROBE', '-probe', 'probe%00', 'x'.repeat(49)]) {
      const response = await callJob(t, job);
      expect({ job, status: response.statusCode }).toEqual({ job, status: 400 });
      expect(response.json()).toMatchObject({ error: 'Validation failed' });
    }
    expect(await runsInDatabase(t)).toHaveLength(before);
  });

  it(`refuses a client after ${MAX_BEARER_FAILURES} wrong bearers, even with the right one, until the window ends`, async () => {
    const remoteAddress = uniqueClientAddress();
    for (let attempt = 0; attempt < MAX_BEARER_FAILURES; attempt += 1) {
      const response = await callJob(t, 'probe', {
        authorization: `Bearer guess-${attempt}`,
        remoteAddress,
      });
      expect(response.statusCode).toBe(401);
    }
    const locked = await callJob(t, 'probe', { remoteAddress });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: 'Too many requests' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another client with the right bearer is not held up.
    expect((await callJob(t, 'probe', { query: '' })).statusCode).toBe(200);
    const refusals = t.logs
      .entries()
      .filter((entry) => entry.securityEvent === 'cron.bearer_refused');
    expect(refusals.length).toBeGreaterThanOrEqual(MAX_BEARER_FAILURES);
    expect(t.logs.text()).not.toContain(TEST_SECRETS.CRON_SECRET);
  });

  it('counts every cron call of a client under its own limit', async () => {
    const remoteAddress = uniqueClientAddress();
    const statuses: number[] = [];
    for (let call = 0; call < 31; call += 1) {
      statuses.push((await callJob(t, 'no-such-job', { remoteAddress })).statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('is documented in the API reference as open to schedulers, with no action of the policy table', () => {
    const spec = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const operation = spec.paths['/api/cron/{job}']?.post;
    expect(operation).toBeDefined();
    expect(operation?.['x-action']).toBeUndefined();
  });
});
