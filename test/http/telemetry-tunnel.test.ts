import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MAX_FORWARDS_IN_FLIGHT,
  TUNNEL_BODY_LIMIT_BYTES,
  TUNNEL_RATE_LIMIT,
} from '../../src/server/platform/http/telemetry-tunnel.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';

/** A stand-in for the error-tracking ingest (or for a host nobody should ever reach) on loopback. */
interface FakeServer {
  origin: string;
  port: number;
  received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }>;
  answer: (response: http.ServerResponse) => void;
  close(): Promise<void>;
}

const answerOk = (response: http.ServerResponse) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"accepted"}');

async function startFakeServer(): Promise<FakeServer> {
  const server = http.createServer();
  const fake: FakeServer = {
    origin: '',
    port: 0,
    received: [],
    answer: answerOk,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  server.on('request', (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      fake.received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      fake.answer(response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.port = (server.address() as AddressInfo).port;
  fake.origin = `http://127.0.0.1:${fake.port}`;
  return fake;
}

const PUBLIC_KEY = 'f3a1c2e4b5d6a7980123456789abcdef';
const PROJECT_ID = '42';
const PPS_NUMBER = '6433435F';
const ADDRESS = 'aoife.byrne@example.ie';
const COOKIE_VALUE = 'session-cookie-value-never-forwarded';
const RESET_TOKEN = 'Zm9yZ290LXBhc3N3b3JkLXJlc2V0LXRva2VuLXZhbHVl';

let shared: TestDatabase;
let ingest: FakeServer;
let elsewhere: FakeServer;
let redirectTarget: FakeServer;
let dsn: string;
let withDsn: TestApp;
let withoutDsn: TestApp;

beforeAll(async () => {
  shared = await openTestDatabase();
  [ingest, elsewhere, redirectTarget] = await Promise.all([
    startFakeServer(),
    startFakeServer(),
    startFakeServer(),
  ]);
  dsn = `http://${PUBLIC_KEY}@127.0.0.1:${ingest.port}/${PROJECT_ID}`;
  withDsn = await buildTestApp({ database: shared.database, env: { SENTRY_DSN: dsn } });
  withoutDsn = await buildTestApp({ database: shared.database });
});

afterAll(async () => {
  await withDsn?.close();
  await withoutDsn?.close();
  await Promise.all([ingest?.close(), elsewhere?.close(), redirectTarget?.close()]);
  await shared?.dispose();
});

afterEach(() => {
  for (const fake of [ingest, elsewhere, redirectTarget]) {
    fake.received.length = 0;
    fake.answer = answerOk;
  }
  vi.restoreAllMocks();
});

type Item = [Record<string, unknown>, string | Buffer];

/** An envelope as the browser SDK serialises it. */
function envelope(header: Record<string, unknown>, items: Item[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const [itemHeader, payload] of items) {
    parts.push(Buffer.from(`\n${JSON.stringify(itemHeader)}\n`), Buffer.from(payload));
  }
  return Buffer.concat(parts);
}

const EVENT_ID = '9f2c4b1a7d3e4f5a8b6c0d1e2f3a4b5c';

/** An error event carrying everything the scrubbers must remove. */
function leakyEvent() {
  return {
    event_id: EVENT_ID,
    timestamp: 1_767_225_600,
    platform: 'javascript',
    level: 'error',
    message: `Could not save member ${PPS_NUMBER} for ${ADDRESS}`,
    exception: {
      values: [
        {
          type: 'Error',
          value: `Validation failed for ${ADDRESS.toUpperCase()} (PPS ${PPS_NUMBER.toLowerCase()})`,
          stacktrace: {
            frames: [{ filename: 'https://pensions.example.ie/assets/index-a1b2c3.js' }],
          },
        },
      ],
    },
    breadcrumbs: [
      { category: 'console', message: `member ${PPS_NUMBER} opened`, timestamp: 1_767_225_599 },
      {
        category: 'navigation',
        data: { from: '/members', to: `/reset-password#token=${RESET_TOKEN}` },
        timestamp: 1_767_225_598,
      },
    ],
    request: {
      url: `https://pensions.example.ie/reset-password#token=${RESET_TOKEN}`,
      cookies: { session: COOKIE_VALUE },
      headers: { Cookie: `session=${COOKIE_VALUE}`, 'User-Agent': 'Mozilla/5.0' },
    },
    user: { id: 'user-17', email: ADDRESS, ip_address: '203.0.113.9' },
    extra: { note: `mailto:${ADDRESS}` },
  };
}

const eventItem = (payload: object = leakyEvent()): Item => [
  { type: 'event' },
  JSON.stringify(payload),
];

function post(
  app: TestApp,
  body: string | Buffer,
  contentType = 'text/plain;charset=UTF-8',
  headers: Record<string, string> = {},
) {
  return app.app.inject({
    method: 'POST',
    url: '/monitoring',
    remoteAddress: uniqueClientAddress(),
    headers: { 'content-type': contentType, ...headers },
    payload: body,
  });
}

/** Splits what the ingest received back into its header and its items. */
function parseForwarded(body: Buffer) {
  const lines = body.toString('utf8').split('\n').filter(Boolean);
  const header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  const items: Array<{ header: { type: string; length: number }; payload: string }> = [];
  for (let index = 1; index < lines.length; index += 2) {
    items.push({ header: JSON.parse(lines[index] ?? ''), payload: lines[index + 1] ?? '' });
  }
  return { header, items };
}

describe('POST /monitoring with SENTRY_DSN configured', () => {
  it('forwards an envelope naming the configured DSN to its ingest, scrubbed', async () => {
    const response = await post(
      withDsn,
      envelope({ event_id: EVENT_ID, dsn, sent_at: '2026-01-01T00:00:00.000Z' }, [
        eventItem(),
        [{ type: 'attachment', length: 5, filename: 'screen.png' }, 'PNG!!'],
        [{ type: 'replay_recording', length: 4 }, Buffer.from([0, 1, 2, 3])],
      ]),
      'text/plain;charset=UTF-8',
      { cookie: `session=${COOKIE_VALUE}`, 'user-agent': 'Mozilla/5.0' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'accepted' });

    expect(ingest.received).toHaveLength(1);
    const [forwarded] = ingest.received;
    expect(forwarded?.method).toBe('POST');
    expect(forwarded?.url).toBe(`/api/${PROJECT_ID}/envelope/`);
    expect(forwarded?.headers['content-type']).toBe('application/x-sentry-envelope');
    expect(forwarded?.headers.cookie).toBeUndefined();
    expect(forwarded?.headers['x-forwarded-for']).toBeUndefined();

    const text = forwarded?.body.toString('utf8') ?? '';
    for (const secret of [
      PPS_NUMBER,
      PPS_NUMBER.toLowerCase(),
      ADDRESS,
      COOKIE_VALUE,
      RESET_TOKEN,
    ]) {
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    const { header, items } = parseForwarded(forwarded?.body ?? Buffer.alloc(0));
    expect(header).toEqual({ event_id: EVENT_ID, dsn, sent_at: '2026-01-01T00:00:00.000Z' });
    expect(items.map((item) => item.header.type)).toEqual(['event']);
    const item = items[0] as (typeof items)[number];
    expect(item.header.length).toBe(Buffer.byteLength(item.payload));
    const event = JSON.parse(item.payload);
    expect(event.event_id).toBe(EVENT_ID);
    expect(event.message).toBe('Could not save member [Filtered] for [Filtered]');
    expect(event.exception.values[0].value).toBe(
      'Validation failed for [Filtered] (PPS [Filtered])',
    );
    expect(event.exception.values[0].stacktrace.frames[0].filename).toBe(
      'https://pensions.example.ie/assets/index-a1b2c3.js',
    );
    expect(event.breadcrumbs[0].message).toBe('member [Filtered] opened');
    expect(event.breadcrumbs[1].data.to).toBe('/reset-password#token=[Filtered]');
    expect(event.request).toEqual({
      url: 'https://pensions.example.ie/reset-password#token=[Filtered]',
    });
    expect(event.user).toEqual({ id: 'user-17' });
    expect(event.extra.note).toBe('mailto:[Filtered]');
  });

  it('takes the SDK media type too, and an envelope whose items give their length', async () => {
    const payload = JSON.stringify({ event_id: EVENT_ID, message: `é ${PPS_NUMBER}` });
    const response = await post(
      withDsn,
      envelope({ dsn }, [[{ type: 'event', length: Buffer.byteLength(payload) }, payload]]),
      'application/x-sentry-envelope',
    );
    expect(response.statusCode).toBe(200);
    const { items } = parseForwarded(ingest.received[0]?.body ?? Buffer.alloc(0));
    expect(JSON.parse(items[0]?.payload ?? '')).toEqual({
      event_id: EVENT_ID,
      message: 'é [Filtered]',
    });
  });

  it('answers 200 and sends nothing when no item is one it forwards', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const response = await post(
      withDsn,
      envelope({ dsn }, [
        [{ type: 'replay_event' }, JSON.stringify({ replay_id: 'r1' })],
        [{ type: 'event' }, 'not json'],
      ]),
    );
    expect(response.statusCode).toBe(200);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(ingest.received).toHaveLength(0);
  });

  it('refuses an envelope naming any other DSN with 400, and contacts nobody', async () => {
    const port = ingest.port;
    const others = [
      `http://${PUBLIC_KEY}@evil.example/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.2:${port}/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}/43`,
      `http://0123456789abcdef0123456789abcdef@127.0.0.1:${port}/${PROJECT_ID}`,
      `http://${PUBLIC_KEY.toUpperCase()}@127.0.0.1:${port}/${PROJECT_ID}`,
      `HTTP://${PUBLIC_KEY}@127.0.0.1:${port}/${PROJECT_ID}`,
      `https://${PUBLIC_KEY}@127.0.0.1:${port}/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.1/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@localhost:${port}/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}:secret@127.0.0.1:${port}/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}@evil.example/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}/evil/${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}/${PROJECT_ID}/`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}/${PROJECT_ID}/../${PROJECT_ID}`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}/${PROJECT_ID}?host=evil.example`,
      `http://${PUBLIC_KEY}@127.0.0.1:${port}/${PROJECT_ID}#`,
      `${dsn} `,
      ` ${dsn}`,
      `${dsn}\u0000`,
      `http://${PUBLIC_KEY}@127.0.0.1:${elsewhere.port}/${PROJECT_ID}`,
    ];
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    for (const other of others) {
      const response = await post(withDsn, envelope({ dsn: other }, [eventItem()]));
      expect(response.statusCode, other).toBe(400);
      expect(response.json()).toEqual({ error: 'Invalid envelope' });
    }
    for (const odd of [[dsn], { dsn }, null, 42]) {
      const response = await post(withDsn, envelope({ dsn: odd }, [eventItem()]));
      expect(response.statusCode).toBe(400);
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(ingest.received).toHaveLength(0);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('does not follow a redirect from the ingest: 502, and the redirect target hears nothing', async () => {
    ingest.answer = (response) =>
      response
        .writeHead(302, { location: `${redirectTarget.origin}/api/${PROJECT_ID}/envelope/` })
        .end();
    const response = await post(withDsn, envelope({ dsn }, [eventItem()]));
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: 'Telemetry unavailable' });
    expect(ingest.received).toHaveLength(1);
    expect(redirectTarget.received).toHaveLength(0);
  });

  it('answers 502 for an ingest error without echoing its body, and passes on its rate-limit hints', async () => {
    ingest.answer = (response) =>
      response
        .writeHead(429, { 'x-sentry-rate-limits': '60:error:organization', 'retry-after': '60' })
        .end('upstream detail that must stay upstream');
    const response = await post(withDsn, envelope({ dsn }, [eventItem()]));
    expect(response.statusCode).toBe(502);
    expect(response.body).toBe('{"error":"Telemetry unavailable"}');
    expect(response.headers['x-sentry-rate-limits']).toBe('60:error:organization');
    expect(response.headers['retry-after']).toBe('60');

    ingest.answer = (response) => response.writeHead(500).end('stack trace of the ingest');
    const failed = await post(withDsn, envelope({ dsn }, [eventItem()]));
    expect(failed.statusCode).toBe(502);
    expect(failed.body).not.toContain('stack trace');
  });

  it('gives up on an ingest that does not answer in time', async () => {
    ingest.answer = () => {};
    const started = Date.now();
    const response = await post(withDsn, envelope({ dsn }, [eventItem()]));
    expect(response.statusCode).toBe(502);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 15_000);

  it(`drops envelopes beyond ${MAX_FORWARDS_IN_FLIGHT} waiting on the ingest, rather than queueing them`, async () => {
    const held: http.ServerResponse[] = [];
    ingest.answer = (response) => held.push(response);
    const waiting = Array.from({ length: MAX_FORWARDS_IN_FLIGHT }, () =>
      post(withDsn, envelope({ dsn }, [eventItem()])),
    );
    await vi.waitFor(() => expect(held).toHaveLength(MAX_FORWARDS_IN_FLIGHT));
    const dropped = await post(withDsn, envelope({ dsn }, [eventItem()]));
    expect(dropped.statusCode).toBe(503);
    expect(dropped.headers['retry-after']).toBe('60');
    for (const response of held) answerOk(response);
    expect((await Promise.all(waiting)).map((response) => response.statusCode)).toEqual(
      Array(MAX_FORWARDS_IN_FLIGHT).fill(200),
    );
    expect(ingest.received).toHaveLength(MAX_FORWARDS_IN_FLIGHT);
  });

  it(`refuses a body over ${TUNNEL_BODY_LIMIT_BYTES} bytes with 413 and forwards nothing`, async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const base = envelope({ dsn }, [eventItem({ event_id: EVENT_ID, message: '' })]);
    const padding = TUNNEL_BODY_LIMIT_BYTES - base.length;
    const atLimit = envelope({ dsn }, [
      eventItem({ event_id: EVENT_ID, message: 'x'.repeat(padding) }),
    ]);
    expect(atLimit.length).toBe(TUNNEL_BODY_LIMIT_BYTES);
    const overLimit = envelope({ dsn }, [
      eventItem({ event_id: EVENT_ID, message: 'x'.repeat(padding + 1) }),
    ]);
    const refused = await post(withDsn, overLimit);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({ error: 'Payload too large' });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(ingest.received).toHaveLength(0);
    expect((await post(withDsn, atLimit)).statusCode).toBe(200);
    expect(ingest.received).toHaveLength(1);
  });

  it('scrubs a body made of the worst shapes for its patterns in linear time', async () => {
    const message = `${'a-'.repeat(40_000)}@b.ie ${'x'.repeat(60_000)} ${'1'.repeat(50_000)}`;
    const started = Date.now();
    const response = await post(
      withDsn,
      envelope({ dsn }, [eventItem({ event_id: EVENT_ID, message })]),
    );
    expect(response.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a malformed envelope with 400 and forwards nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const event = JSON.stringify(leakyEvent());
    const malformed: Array<string | Buffer> = [
      '',
      `\n{"type":"event"}\n${event}`,
      `not json\n{"type":"event"}\n${event}`,
      `[${JSON.stringify(dsn)}]\n{"type":"event"}\n${event}`,
      `{"event_id":"${EVENT_ID}"}\n{"type":"event"}\n${event}`,
      `{"dsn":"${dsn}"\n{"type":"event"}\n${event}`,
      `{"dsn":"${dsn}"}\nnot an item header\n${event}`,
      `{"dsn":"${dsn}"}\n{"length":2}\n{}`,
      `{"dsn":"${dsn}"}\n{"type":"event","length":99999}\n${event}`,
      `{"dsn":"${dsn}"}\n{"type":"event","length":-1}\n${event}`,
      `{"dsn":"${dsn}"}\n{"type":"event","length":2}\n{}garbage`,
      `{"dsn":"${dsn}"}\n{"type":"event"}`,
      Buffer.from([0xff, 0xfe, 0x00, 0x0a]),
    ];
    for (const body of malformed) {
      const response = await post(withDsn, body);
      expect(response.statusCode, String(body).slice(0, 60)).toBe(400);
      expect(response.json()).toEqual({ error: 'Invalid envelope' });
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(ingest.received).toHaveLength(0);
  });

  it('takes only the envelope media types (415 otherwise)', async () => {
    const body = envelope({ dsn }, [eventItem()]);
    for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
      const response = await post(withDsn, body, contentType);
      expect(response.statusCode).toBe(415);
    }
    const untyped = await withDsn.app.inject({
      method: 'POST',
      url: '/monitoring',
      remoteAddress: uniqueClientAddress(),
      payload: body,
    });
    expect(untyped.statusCode).toBe(415);
    expect(ingest.received).toHaveLength(0);
  });

  it('refuses an envelope posted from another site', async () => {
    const response = await post(withDsn, envelope({ dsn }, [eventItem()]), undefined, {
      origin: 'https://evil.example',
    });
    expect(response.statusCode).toBe(403);
    expect(ingest.received).toHaveLength(0);
    const own = await post(withDsn, envelope({ dsn }, [eventItem()]), undefined, {
      origin: 'https://pensions.example.ie',
    });
    expect(own.statusCode).toBe(200);
  });
});

describe('POST /monitoring without SENTRY_DSN', () => {
  it('accepts and drops every envelope, sending nothing anywhere', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    for (const named of [dsn, `http://${PUBLIC_KEY}@127.0.0.1:${elsewhere.port}/1`, undefined]) {
      const response = await post(withoutDsn, envelope({ dsn: named }, [eventItem()]));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'accepted' });
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(ingest.received).toHaveLength(0);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('still refuses bodies over the limit', async () => {
    const response = await post(withoutDsn, 'x'.repeat(TUNNEL_BODY_LIMIT_BYTES + 1));
    expect(response.statusCode).toBe(413);
  });
});

describe('the rate limit of /monitoring', () => {
  it(`allows ${TUNNEL_RATE_LIMIT.max} envelopes a minute per client IP, then 429 with Retry-After`, async () => {
    const remoteAddress = uniqueClientAddress();
    const send = () =>
      withDsn.app.inject({
        method: 'POST',
        url: '/monitoring',
        remoteAddress,
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: envelope({ dsn }, [eventItem()]),
      });
    const statuses: number[] = [];
    for (let sent = 0; sent < TUNNEL_RATE_LIMIT.max; sent += 1) {
      statuses.push((await send()).statusCode);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(ingest.received).toHaveLength(TUNNEL_RATE_LIMIT.max);
    // Another client is not held back, and the API's own allowance is untouched.
    expect((await post(withDsn, envelope({ dsn }, [eventItem()]))).statusCode).toBe(200);
    expect((await withDsn.app.inject({ url: '/api/health/live', remoteAddress })).statusCode).toBe(
      200,
    );
  });
});

describe('the page and the responses', () => {
  const page = (app: TestApp) =>
    app.app.inject({
      url: '/',
      remoteAddress: uniqueClientAddress(),
      headers: { accept: 'text/html' },
    });

  it('gives the page the DSN in a meta tag exactly when SENTRY_DSN is set', async () => {
    const configured = await page(withDsn);
    expect(configured.statusCode).toBe(200);
    expect(configured.body).toContain(`<meta name="telemetry-dsn" content="${dsn}" />`);
    expect(configured.body.match(/telemetry-dsn/g)).toHaveLength(1);
    expect(configured.body).not.toContain('__CSP_NONCE__');
    const unconfigured = await page(withoutDsn);
    expect(unconfigured.statusCode).toBe(200);
    expect(unconfigured.body).not.toContain('telemetry-dsn');
  });

  it('puts the security headers of docs/api.md on every /monitoring answer', async () => {
    ingest.answer = (response) => response.writeHead(500).end();
    const answers = [
      await post(withDsn, envelope({ dsn }, [eventItem()])),
      await post(withDsn, 'not an envelope'),
      await post(withDsn, 'x'.repeat(TUNNEL_BODY_LIMIT_BYTES + 1)),
      await post(withDsn, '{}', 'application/json'),
      await post(withoutDsn, envelope({ dsn }, [eventItem()])),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([502, 400, 413, 415, 200]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject({
        'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'permissions-policy': 'camera=(), microphone=(), geolocation=()',
      });
      expect(String(answer.headers['content-security-policy'])).toMatch(
        /^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/,
      );
    }
  });

  it('logs no envelope content', async () => {
    const logs = `${withDsn.logs.text()}\n${withoutDsn.logs.text()}`;
    expect(logs).toContain('/monitoring');
    for (const content of [
      PPS_NUMBER,
      ADDRESS,
      COOKIE_VALUE,
      RESET_TOKEN,
      EVENT_ID,
      PUBLIC_KEY,
      'Could not save member',
      'upstream detail',
    ]) {
      expect(logs.toLowerCase()).not.toContain(content.toLowerCase());
    }
  });
});
