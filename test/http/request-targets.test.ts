import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpsRedirectServer } from '../../src/server/platform/http/redirect-server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { minuteClock, uniqueClientAddress } from '../helpers/clients.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { type RawResponse, rawRequest } from '../helpers/raw-http.js';
import { concretePath, type RegisteredRoute, watchRoutes } from '../helpers/routes.js';
import { selfSignedCertificate } from '../helpers/tls.js';

/**
 * The gate, the rate limits and the access log classify exactly what the router routes
 * (docs/decisions/0007-classify-request-paths-once.md), whatever form the request target takes
 * (RFC 9112 §3.2): origin form, absolute form with this or another host and any case of scheme,
 * authority form, asterisk form. Every request here is sent as raw bytes: inject and fetch would
 * rewrite the target first.
 */

// Top-level: the tests below are generated from the routes the app registers.
const shared: TestDatabase = await openTestDatabase();
const watch = watchRoutes();
// Twelve sign-ins must fall in one minute of the service's clock: it is started at one.
const clock = minuteClock();
const t: TestApp = await buildTestApp({
  database: shared.database,
  now: clock.now,
  // Raw requests all come from 127.0.0.1: each names its client in X-Forwarded-For instead.
  env: { TRUST_PROXY: '127.0.0.1' },
});
watch.stop();
const routes = watch.routes;
await t.app.listen({ port: 0, host: '127.0.0.1' });
const port = (t.app.server.address() as { port: number }).port;
afterAll(async () => {
  await t.app.close();
  await shared.dispose();
});

/** Everything under /api needs a session but sign-in's and the probes' (docs/api.md, "Errors"). */
const isProtected = (pattern: string) =>
  (pattern === '/api' || pattern.startsWith('/api/')) &&
  !pattern.startsWith('/api/auth/') &&
  !pattern.startsWith('/api/health/');
const protectedRoutes = routes.filter((route) => isProtected(route.url));

/**
 * The forms of a target that Fastify routes to `path`: absolute form, and a `*` in place of the
 * leading slash (Node accepts it as the asterisk form; the router reads past its first character).
 */
function absoluteForms(path: string, host = `localhost:${port}`): Array<[string, string]> {
  return [
    ['absolute form naming this host', `http://${host}${path}`],
    ['absolute form naming another host', `http://evil.example${path}`],
    ['absolute form in upper case', `HTTP://EVIL.EXAMPLE${path}`],
    ['absolute https form with a port and a query', `https://evil.example:8443${path}?page=2`],
    ['asterisk form standing for the leading slash', `*${path.slice(1)}`],
  ];
}

interface Sent {
  client?: string;
  headers?: string;
  body?: string;
  tls?: boolean;
  port?: number;
}

function send(method: string, target: string, sent: Sent = {}): Promise<RawResponse> {
  const body = sent.body ?? (['GET', 'HEAD', 'DELETE'].includes(method) ? '' : '{}');
  const head = [
    `${method} ${target} HTTP/1.1`,
    'Host: localhost',
    'Connection: close',
    `X-Forwarded-For: ${sent.client ?? uniqueClientAddress()}`,
    ...(body === '' ? [] : ['Content-Type: application/json', `Content-Length: ${body.length}`]),
  ].join('\r\n');
  return rawRequest(sent.port ?? port, `${head}\r\n${sent.headers ?? ''}\r\n${body}`, {
    tls: sent.tls ?? false,
  });
}

/** Statuses of `count` requests sent one after another, cycling through `requests`. */
async function statusesOf(count: number, requests: Array<() => Promise<RawResponse>>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    statuses.push(
      (await (requests[i % requests.length] as () => Promise<RawResponse>)()).statusCode,
    );
  }
  return statuses;
}

describe('the route list the tests below are generated from', () => {
  it('holds every protected API route the app registers, in every method', () => {
    const names = protectedRoutes.map((route) => `${route.method} ${route.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/schemes',
        'HEAD /api/schemes',
        'POST /api/schemes',
        'GET /api/members/:id',
        'POST /api/members/:id/pps/reveal',
        'DELETE /api/schemes/:id',
        'PUT /api/members/:id/fund-choices',
        'PATCH /api/users/:id',
      ]),
    );
    expect(protectedRoutes.length).toBeGreaterThan(40);
  });
});

describe('the authentication gate under every request-target form (docs/api.md, "Errors")', () => {
  const byRoute = (route: RegisteredRoute) => `${route.method} ${route.url}`;
  for (const route of protectedRoutes) {
    it(`answers 401 to ${byRoute(route)} without a session in absolute form, before its handler runs`, async () => {
      const path = concretePath(route.url);
      const ran = watch.handled.length;
      for (const [form, target] of [['origin form', path], ...absoluteForms(path)]) {
        const response = await send(route.method, target as string);
        expect({ form, status: response.statusCode }).toEqual({ form, status: 401 });
        if (route.method !== 'HEAD')
          expect(JSON.parse(response.body)).toEqual({ error: 'Unauthorized' });
        expect(response.headers['cache-control']).toBe('no-store');
      }
      expect(watch.handled.slice(ran)).toEqual([]);
    });
  }

  it('serves a protected route in absolute form once the session is valid', async () => {
    const { token } = await t.signedInUser({ role: 'BrokerAdmin' });
    for (const [, target] of absoluteForms('/api/schemes')) {
      const response = await send('GET', target, { headers: `Authorization: Bearer ${token}\r\n` });
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body)).toHaveProperty('items');
    }
  });

  it('lets the public probe and session routes through in absolute form', async () => {
    for (const [, target] of absoluteForms('/api/health/live')) {
      expect((await send('GET', target)).statusCode).toBe(200);
    }
    for (const [, target] of absoluteForms('/api/auth/session')) {
      const response = await send('GET', target);
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ user: null });
    }
  });

  it('fails closed on a bare asterisk no route serves: 401 without a session, 404 with one', async () => {
    const ran = watch.handled.length;
    for (const method of ['OPTIONS', 'POST', 'DELETE']) {
      const response = await send(method, '*');
      expect(response.statusCode).toBe(401);
      expect(JSON.parse(response.body)).toEqual({ error: 'Unauthorized' });
    }
    const { token } = await t.signedInUser();
    const signedIn = await send('OPTIONS', '*', { headers: `Authorization: Bearer ${token}\r\n` });
    expect(signedIn.statusCode).toBe(404);
    expect(JSON.parse(signedIn.body)).toEqual({ error: 'Not found' });
    expect(watch.handled.slice(ran)).toEqual([]);
  });

  it('answers a bare asterisk the router routes to the page with the page, as it routes it', async () => {
    const response = await send('GET', '*', { headers: 'Accept: text/html\r\n' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('fails closed on targets it cannot read: another scheme, no authority, undecodable, overlong, bare authority', async () => {
    const ran = watch.handled.length;
    for (const target of [
      'ftp://evil.example/api/schemes',
      'http:///api/schemes',
      'http://evil.example/api/%zz',
      `http://evil.example/api/schemes/${'x'.repeat(300)}`,
      'localhost:443',
    ]) {
      const response = await send('GET', target);
      expect({ target, status: response.statusCode }).toEqual({
        target,
        status: target === 'localhost:443' ? 400 : 401,
      });
    }
    expect(watch.handled.slice(ran)).toEqual([]);
  });

  it('never hands an authority-form CONNECT to the app', async () => {
    const ran = watch.handled.length;
    const response = await send('CONNECT', `localhost:${port}`).catch(() => null);
    // Node closes the connection of a CONNECT nobody listens for: no status, no body.
    expect(response === null || Number.isNaN(response.statusCode)).toBe(true);
    expect(watch.handled.slice(ran)).toEqual([]);
  });

  it('still serves the app page for an absolute-form page address', async () => {
    const response = await send('GET', 'http://evil.example/employers/abc', {
      headers: 'Accept: text/html\r\n',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});

describe('rate limits under every request-target form (docs/api.md, "Rate limits")', () => {
  it('count every protected route in every form, and fail-closed targets, against the 100 a minute', async () => {
    const client = uniqueClientAddress();
    const requests = protectedRoutes.flatMap((route) => [
      ...absoluteForms(concretePath(route.url)).map(
        ([, target]) =>
          () =>
            send(route.method, target, { client }),
      ),
    ]);
    requests.splice(7, 0, () => send('OPTIONS', '*', { client }));
    requests.splice(9, 0, () => send('DELETE', '*', { client }));
    requests.splice(13, 0, () => send('GET', 'http://evil.example/API/Schemes', { client }));
    requests.splice(21, 0, () => send('GET', 'ftp://evil.example/api/schemes', { client }));
    const statuses = await statusesOf(104, requests);
    expect(statuses.slice(0, 100).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(100)).toEqual([429, 429, 429, 429]);
  });

  it('count authentication attempts in absolute form against the 10 a minute of /api/auth/*', async () => {
    const client = uniqueClientAddress();
    const body = JSON.stringify({
      token: 'not-a-token',
      password: 'a new passphrase of some length',
    });
    const requests = absoluteForms('/api/auth/reset-password').map(
      ([, target]) =>
        () =>
          send('POST', target, { client, body }),
    );
    const statuses = await statusesOf(12, requests);
    expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('refuse the sixth of twelve sign-ins from one address in absolute form', async () => {
    // Failed sign-ins count within the clock minute (docs/decisions/0107): all twelve in one.
    clock.startMinute();
    const client = uniqueClientAddress();
    const body = JSON.stringify({ email: 'nobody@example.ie', password: 'not the password' });
    const targets = [
      ...absoluteForms('/api/auth/signin').map(([, target]) => target),
      'http://evil.example/api/auth/callback/credentials',
    ];
    const statuses = await statusesOf(
      12,
      targets.map((target) => () => send('POST', target, { client, body })),
    );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  }, 90_000);

  it('refuse the fourth forgot-password request from one address in absolute form', async () => {
    const client = uniqueClientAddress();
    const body = JSON.stringify({ email: 'nobody@example.ie' });
    const statuses = await statusesOf(
      6,
      absoluteForms('/api/auth/forgot-password').map(
        ([, target]) =>
          () =>
            send('POST', target, { client, body }),
      ),
    );
    expect(statuses.slice(0, 3).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
  });
});

describe('the access log under every request-target form', () => {
  it('leaves successful absolute-form health probes out, as it does origin-form ones, and logs failing ones', async () => {
    const before = t.logs.entries().length;
    for (const target of [
      '/api/health/live',
      ...absoluteForms('/api/health/live').map(([, x]) => x),
    ]) {
      expect((await send('GET', target)).statusCode).toBe(200);
    }
    expect((await send('GET', 'http://evil.example/api/health/unknown-probe')).statusCode).toBe(
      404,
    );
    const probeLines = t.logs
      .entries()
      .slice(before)
      .filter((line) => JSON.stringify(line).includes('/api/health/'));
    expect(probeLines).toHaveLength(1);
    expect(probeLines[0]).toMatchObject({
      message: 'request completed',
      res: { statusCode: 404 },
    });
  });
});

describe('served over TLS by the service itself', () => {
  let tls: TestApp;
  let tlsPort: number;
  beforeAll(async () => {
    const { certFile, keyFile } = selfSignedCertificate();
    tls = await buildTestApp({
      database: shared.database,
      now: clock.now,
      env: {
        APP_ENV: 'production',
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
        TRUST_PROXY: '127.0.0.1',
      },
    });
    await tls.app.listen({ port: 0, host: '127.0.0.1' });
    tlsPort = (tls.app.server.address() as { port: number }).port;
  });
  afterAll(() => tls.app.close());

  const overTls = (method: string, target: string, sent: Sent = {}) =>
    send(method, target, { ...sent, tls: true, port: tlsPort });

  it('answers 401 to a protected route in absolute form without a session', async () => {
    for (const [, target] of absoluteForms('/api/schemes', 'pensions.example.ie')) {
      const response = await overTls('GET', target);
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuses the sixth of twelve sign-ins from one address in absolute form', async () => {
    // Failed sign-ins count within the clock minute (docs/decisions/0107): all twelve in one.
    clock.startMinute();
    const client = uniqueClientAddress();
    const body = JSON.stringify({ email: 'nobody@example.ie', password: 'not the password' });
    const statuses = await statusesOf(
      12,
      absoluteForms('/api/auth/signin', 'pensions.example.ie').map(
        ([, target]) =>
          () =>
            overTls('POST', target, { client, body }),
      ),
    );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  }, 90_000);

  it('refuses the fourth forgot-password request from one address in absolute form', async () => {
    const client = uniqueClientAddress();
    const body = JSON.stringify({ email: 'nobody@example.ie' });
    const statuses = await statusesOf(
      5,
      absoluteForms('/api/auth/forgot-password', 'pensions.example.ie').map(
        ([, target]) =>
          () =>
            overTls('POST', target, { client, body }),
      ),
    );
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});

describe('the HTTPS redirect under every request-target form (docs/api.md, "HTTPS and headers")', () => {
  let staging: TestApp;
  let stagingPort: number;
  beforeAll(async () => {
    staging = await buildTestApp({ database: shared.database, env: { APP_ENV: 'staging' } });
    await staging.app.listen({ port: 0, host: '127.0.0.1' });
    stagingPort = (staging.app.server.address() as { port: number }).port;
  });
  afterAll(() => staging.app.close());

  it('sends an absolute-form target to its path on the public origin, and the asterisk to the root', async () => {
    const redirected = await send('GET', 'http://evil.example/api/schemes?page=2', {
      port: stagingPort,
    });
    expect(redirected.statusCode).toBe(301);
    expect(redirected.headers.location).toBe('https://pensions.example.ie/api/schemes?page=2');
    const asterisk = await send('OPTIONS', '*', { port: stagingPort });
    expect(asterisk.statusCode).toBe(301);
    expect(asterisk.headers.location).toBe('https://pensions.example.ie/');
  });

  it('leaves an absolute-form health probe reachable over plain HTTP', async () => {
    const probe = await send('GET', 'http://10.0.0.7:8080/api/health/live', { port: stagingPort });
    expect(probe.statusCode).toBe(200);
  });
});

describe('the plain-HTTP redirect listener beside TLS (HTTP_REDIRECT_PORT)', () => {
  it('sends an absolute-form target to its path on the public origin, and the asterisk to the root', async () => {
    const server = createHttpsRedirectServer(new URL('https://pensions.example.ie'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const redirectPort = (server.address() as { port: number }).port;
      const absolute = await send('GET', 'HTTP://evil.example/api/schemes?page=2', {
        port: redirectPort,
      });
      expect(absolute.statusCode).toBe(301);
      expect(absolute.headers.location).toBe('https://pensions.example.ie/api/schemes?page=2');
      const asterisk = await send('OPTIONS', '*', { port: redirectPort });
      expect(asterisk.headers.location).toBe('https://pensions.example.ie/');
      const origin = await send('GET', '/employers/abc', { port: redirectPort });
      expect(origin.headers.location).toBe('https://pensions.example.ie/employers/abc');
    } finally {
      server.close();
    }
  });
});
