import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPath, classifyTarget } from '../../src/server/platform/http/api-paths.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { rawGet } from '../helpers/raw-http.js';

let t: TestApp;
let port: number;
let handlerRuns = 0;
beforeAll(async () => {
  t = await buildTestApp({
    // Each raw request names a client of its own, so per-IP limits stay out of the way.
    env: { TRUST_PROXY: '127.0.0.1' },
    extend(app) {
      // A protected handler that would reveal whether the gate let a request through. Like every
      // route behind the gate it names an action of the policy table, or the app would not start.
      app.get('/api/probe/:id', { config: { action: 'scheme.read' } }, async () => {
        handlerRuns += 1;
        return { secret: 'tenant data' };
      });
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

const tricks = [
  '/api/probe',
  '/api/probe/abc',
  '/api',
  '/api/',
  '//api/probe',
  '///api//probe',
  '/api/health/../probe',
  '/api/health/%2e%2e/probe',
  '/api/health/%2E%2E/probe',
  '/api/health/%252e%252e/probe',
  '/api/auth/../probe',
  '/api/auth/%2e%2e/probe/abc',
  '/API/probe',
  '/Api/Probe/abc',
  '/api/probe.',
  '/api/probe/abc.',
  '/api./probe',
  '/api/probe;jsessionid=1',
  '/api/health;x=1/../probe',
  '/api/health/live/..;/../probe',
  '/%61pi/probe',
  '/x/../api/probe',
  '/api/probe/..%2f..%2fapi%2fhealth%2flive',
  '/api/health\\..\\probe',
  '/api/health/live/',
  '/api/%zz',
  '/api/probe/%zz',
  '/api/health/%zz',
];

describe('the authentication gate (docs/api.md, "Errors": 401)', () => {
  for (const url of tricks) {
    it(`answers 401 before any handler for ${url}, sent as raw bytes in every target form`, async () => {
      const before = handlerRuns;
      // Origin form, absolute form with this and another host, and `*` for the leading slash,
      // which the router reads past (docs/decisions/0007-classify-request-paths-once.md).
      for (const target of [
        url,
        `http://localhost:${port}${url}`,
        `HTTPS://evil.example${url}`,
        `*${url.slice(1)}`,
      ]) {
        const response = await rawGet(
          port,
          target,
          `X-Forwarded-For: ${uniqueClientAddress()}\r\n`,
        );
        expect({ target, status: response.statusCode }).toEqual({ target, status: 401 });
        expect(JSON.parse(response.body)).toEqual({ error: 'Unauthorized' });
        expect(response.headers['x-frame-options']).toBe('DENY');
        expect(response.headers['content-security-policy']).toMatch(
          /^default-src 'self'; script-src 'self' 'nonce-/,
        );
      }
      expect(handlerRuns).toBe(before);
    });
  }

  it('answers 401 for every method, before the body is even parsed', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: '/api/probe',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized' });
    }
  });

  it('lets the public auth and health paths through without a session', async () => {
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    const auth = await t.app.inject({ url: '/api/auth/not-a-route' });
    expect(auth.statusCode).toBe(404);
    expect(auth.json()).toEqual({ error: 'Not found' });
  });

  it('ignores brokerId tricks in query and headers: only the token counts', async () => {
    const response = await t.app.inject({
      url: '/api/probe/abc?brokerId=b1',
      headers: { 'x-broker-id': 'b1', 'x-tenant-id': 'b1' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses garbage, tampered, foreign-secret and expired tokens', async () => {
    const { user, token: valid } = await t.signedInUser({ role: 'BrokerUser' });
    const [header, payload, signature] = valid.split('.');
    const forged = JSON.parse(Buffer.from(String(payload), 'base64url').toString());
    forged.brokerId = 'b2';
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const other = await buildTestApp({
      database: t.database,
      env: { AUTH_SECRET: 'another-secret-that-is-also-long-enough' },
    });
    const foreign = await other.tokenFor(user);
    await other.app.close();
    const expiredApp = await buildTestApp({
      database: t.database,
      now: () => new Date(Date.now() - 31 * 60 * 1000),
    });
    const expired = await expiredApp.tokenFor(user);
    await expiredApp.app.close();

    for (const token of ['garbage', tampered, noneAlg, foreign, expired]) {
      const response = await t.app.inject({
        url: '/api/probe/abc',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
      const cookie = await t.app.inject({ url: '/api/probe/abc', cookies: { session: token } });
      expect(cookie.statusCode).toBe(401);
    }
    const accepted = await t.app.inject({
      url: '/api/probe/abc',
      headers: { authorization: `Bearer ${valid}` },
    });
    expect(accepted.statusCode).toBe(200);
    const byCookie = await t.app.inject({ url: '/api/probe/abc', cookies: { session: valid } });
    expect(byCookie.statusCode).toBe(200);
  });

  it('answers JSON 404 for an unknown API route once the session is valid', async () => {
    const { token } = await t.signedInUser();
    const response = await t.app.inject({
      url: '/api/unknown',
      headers: { authorization: `Bearer ${token}`, accept: 'text/html' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found' });
  });
});

describe('path classification', () => {
  it('reads paths the way a lenient decoder would', () => {
    expect(canonicalPath('/api/health/%2e%2e/schemes?x=1')).toBe('/api/schemes');
    expect(canonicalPath('//API//Schemes;v=1/')).toBe('/api/schemes');
    expect(canonicalPath('/a/b/../../../api')).toBe('/api');
    expect(canonicalPath('/%E0%A4%A')).toBeNull();
  });

  it('answers a malformed non-API URL with a plain 400 that does not echo it', async () => {
    const response = await rawGet(port, '/%zz-secret-looking-path');
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'Bad request' });
    expect(response.body).not.toContain('secret-looking');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps the page and its assets public', () => {
    for (const url of ['/', '/assets/index-abc.js', '/employers/abc', '/apix', '/monitoring']) {
      expect(classifyTarget(url).requiresSession).toBe(false);
      expect(classifyTarget(`http://pensions.example.ie${url}`).requiresSession).toBe(false);
    }
  });
});
