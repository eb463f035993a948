import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_PATH } from '../../src/server/modules/metrics/metrics.routes.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { onPostgres } from '../helpers/database.js';
import { createEmployer, createMember, createScheme } from '../helpers/factories.js';

/**
 * GET /api/health/metrics (docs/decisions/0077-metrics.md):
 * Prometheus text behind the METRICS_SECRET bearer, with labels that never carry personal data.
 */

const BEARER = `Bearer ${TEST_SECRETS.METRICS_SECRET}`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Prometheus's text format 0.0.4, strictly: every line a comment, a sample, or empty. Values
 * are Go floats, whose parser takes NaN in any case (prom-client writes `Nan`).
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const sampleLine =
    /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*)\})? (-?(?:[0-9.e+-]+|[Nn]a[Nn]|\+Inf|-Inf))(?: [0-9]+)?$/;
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = pair[2] as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

function scrape(headers: Record<string, string> = { authorization: BEARER }) {
  return t.app.inject({
    method: 'GET',
    url: METRICS_PATH,
    remoteAddress: uniqueClientAddress(),
    headers,
  });
}

async function samples(): Promise<Sample[]> {
  const response = await scrape();
  expect(response.statusCode).toBe(200);
  return parseExposition(response.body);
}

const requestsOf = (all: Sample[], route: string, statusClass: string) =>
  all
    .filter((s) => s.name === 'pension_http_requests_total')
    .filter((s) => s.labels.route === route && s.labels.status_class === statusClass)
    .reduce((sum, s) => sum + s.value, 0);

describe('the metrics endpoint', () => {
  it.each([
    ['missing', {}],
    ['wrong', { authorization: `Bearer ${'x'.repeat(TEST_SECRETS.METRICS_SECRET.length)}` }],
    ['CRON_SECRET', { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` }],
    ['scheme-less', { authorization: TEST_SECRETS.METRICS_SECRET }],
  ])('answers 401 to a %s bearer and shows no metric', async (_label, headers) => {
    const response = await scrape(headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Unauthorized' });
  });

  it('is not reachable with a signed-in SuperAdmin session alone', async () => {
    const { token } = await t.signedInUser({ role: 'SuperAdmin' });
    const sessions: Record<string, string>[] = [
      { cookie: `session=${token}` },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of sessions) {
      expect((await scrape(headers)).statusCode).toBe(401);
    }
  });

  it('answers Prometheus text that parses line by line, with the families an operator needs', async () => {
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const names = new Set(parseExposition(response.body).map((s) => s.name));
    for (const name of [
      'pension_process_cpu_user_seconds_total',
      'pension_nodejs_eventloop_lag_seconds',
      'pension_outbox_messages',
      'pension_http_request_duration_seconds_bucket',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.has('pension_db_pool_connections')).toBe(onPostgres);
  });

  it('counts requests by route pattern and status class, and times them', async () => {
    const before = await samples();
    const { token } = await t.signedInUser({ role: 'BrokerAdmin' });
    for (let i = 0; i < 3; i += 1) {
      const answer = await t.app.inject({
        url: '/api/schemes/no-such-scheme',
        remoteAddress: uniqueClientAddress(),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.statusCode).toBe(404);
    }
    await t.app.inject({ url: '/api/health/live', remoteAddress: uniqueClientAddress() });
    const after = await samples();
    expect(requestsOf(after, '/api/schemes/:id', '4xx')).toBe(
      requestsOf(before, '/api/schemes/:id', '4xx') + 3,
    );
    expect(requestsOf(after, '/api/health/live', '2xx')).toBe(
      requestsOf(before, '/api/health/live', '2xx') + 1,
    );
    const count = after.find(
      (s) =>
        s.name === 'pension_http_request_duration_seconds_count' &&
        s.labels.route === '/api/schemes/:id' &&
        s.labels.method === 'GET',
    );
    expect(count?.value).toBeGreaterThanOrEqual(3);
  });

  it('reads the outbox depth and the job runs at scrape time', async () => {
    const run = await t.app.inject({
      method: 'POST',
      url: '/api/cron/outbox',
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` },
    });
    expect(run.statusCode).toBe(200);
    const all = await samples();
    const pending = all.find(
      (s) => s.name === 'pension_outbox_messages' && s.labels.status === 'pending',
    );
    expect(pending?.value).toBeGreaterThanOrEqual(0);
    const outboxRuns = all.filter(
      (s) => s.name === 'pension_job_runs' && s.labels.job === 'outbox',
    );
    expect(outboxRuns.reduce((sum, s) => sum + s.value, 0)).toBeGreaterThanOrEqual(1);
  });

  it('never labels a series with an id, a tenant, an address or a query string', async () => {
    const { user, token } = await t.signedInUser({ role: 'BrokerAdmin' });
    const brokerId = user.brokerId as string;
    const employerId = await createEmployer(t.database, brokerId);
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const email = user.email;
    for (const url of [
      `/api/schemes/${schemeId}`,
      `/api/schemes/${schemeId}/members?search=${encodeURIComponent(email)}`,
      `/api/members/${member.id}`,
      `/api/no-such-route/${member.ppsNumber}`,
    ]) {
      await t.app.inject({
        url,
        remoteAddress: uniqueClientAddress(),
        headers: { authorization: `Bearer ${token}` },
      });
    }
    const body = (await scrape()).body;
    for (const secret of [
      brokerId,
      employerId,
      schemeId,
      member.id,
      member.ppsNumber,
      user.id,
      email,
      'search=',
      TEST_SECRETS.METRICS_SECRET,
    ]) {
      expect(body).not.toContain(secret);
    }
    const routes = new Set(
      parseExposition(body)
        .map((s) => s.labels.route)
        .filter((r): r is string => r !== undefined),
    );
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[a-z0-9/:*._-]*)$/);
    expect(routes).toContain('unmatched');
  });
});
