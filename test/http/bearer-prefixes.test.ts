import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { rawRequest } from '../helpers/raw-http.js';

/**
 * `/api/cron/*` and `/api/rag/*` are guarded by their bearer secrets (docs/api.md, "Errors").
 * Every target under them, routed or not and in any form the router or a lenient reader could take
 * it in, answers 401 without the bearer, before its body is read.
 */

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

/** A body no JSON parser accepts: a parser that ran would answer 400, not 401. */
const UNPARSEABLE = '{"not json';

function send(
  method: string,
  target: string,
  { bearer, session }: { bearer?: string; session?: string } = {},
) {
  const head = [
    `${method} ${target} HTTP/1.1`,
    'Host: localhost',
    'Connection: close',
    `X-Forwarded-For: ${uniqueClientAddress()}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(UNPARSEABLE)}`,
    ...(bearer ? [`Authorization: ${bearer}`] : []),
    ...(session ? [`Cookie: session=${session}`] : []),
  ].join('\r\n');
  return rawRequest(port, `${head}\r\n\r\n${UNPARSEABLE}`);
}

const TARGETS = [
  '/api/cron/no-such-job/deeper',
  '/api/cron/outbox/extra',
  '/api/cron/',
  '/api/rag/nothing-here',
  '/api/rag/ingest/more',
  '/api/rag/',
  'http://localhost/api/cron/no-such-route/x',
  'HTTP://elsewhere.example/api/rag/no-such-route',
  '/api/cron%2Fno-such-job%2Fx',
  '/api%2Frag%2Fanything',
  '//api//cron//no-such-job//x',
  '/api//rag/x',
  '/API/CRON/outbox',
  '/Api/Rag/Ingest',
  '/api/cron/./x',
  '/api/rag;x=1/ingest/y',
];

describe('targets under the bearer prefixes', () => {
  it('answer 401 with the body docs/api.md gives before any body is parsed, routed or not, in any form', async () => {
    for (const target of TARGETS) {
      for (const method of ['POST', 'GET', 'PUT']) {
        const answer = await send(method, target);
        expect(answer.statusCode, `${method} ${target}`).toBe(401);
        expect(JSON.parse(answer.body), `${method} ${target}`).toEqual({ error: 'Unauthorized' });
      }
    }
  });

  it('answer 401 to a signed-in user without the bearer: a session is no substitute', async () => {
    const { token } = await t.signedInUser();
    for (const target of ['/api/cron/no-such-job/x', '/api/rag/elsewhere']) {
      const answer = await send('POST', target, { session: token });
      expect(answer.statusCode, target).toBe(401);
    }
  });

  it('answer 401 for a wrong bearer, and only with the right one read the body', async () => {
    const wrong = await send('POST', '/api/cron/no-such-job/x', { bearer: 'Bearer nope' });
    expect(wrong.statusCode).toBe(401);
    const right = await send('POST', '/api/cron/no-such-job/x', {
      bearer: `Bearer ${TEST_SECRETS.CRON_SECRET}`,
    });
    expect(right.statusCode).toBe(400);
    expect(JSON.parse(right.body)).toEqual({ error: 'Invalid JSON' });
    const rag = await send('GET', '/api/rag/nothing-here', {
      bearer: `Bearer ${TEST_SECRETS.RAG_INGEST_SECRET}`,
    });
    expect(rag.statusCode).toBe(404);
  });

  it('leave other public and protected paths as they were', async () => {
    expect((await send('GET', '/api/health/live')).statusCode).toBe(200);
    expect((await send('GET', '/api/cronjobs')).statusCode).toBe(401);
    expect((await send('GET', '/no-such-page')).statusCode).not.toBe(401);
  });
});
