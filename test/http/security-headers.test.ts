import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshNonce } from '../../src/server/platform/http/security-headers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extend(app) {
      app.post(
        '/api/auth/test-echo',
        { schema: { body: z.object({ name: z.string() }) } },
        async () => ({ ok: true }),
      );
      app.get('/api/health/test-crash', async () => {
        throw new Error('boom');
      });
    },
  });
});
afterAll(() => t.close());

const EXACT_HEADERS = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-resource-policy': 'same-origin',
};
const CSP_START = /^default-src 'self'; script-src 'self' 'nonce-([A-Za-z0-9+/=]{16,})'(;|$)/;

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers).toMatchObject(EXACT_HEADERS);
  const csp = String(headers['content-security-policy']);
  expect(csp).toMatch(CSP_START);
  for (const directive of [
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ]) {
    expect(csp).toContain(directive);
  }
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  return CSP_START.exec(csp)?.[1];
}

describe('security headers (docs/api.md, "HTTPS and headers")', () => {
  const responses: Array<
    [string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>, number]
  > = [
    ['JSON', () => t.app.inject({ url: '/api/health/live' }), 200],
    ['401', () => t.app.inject({ url: '/api/schemes' }), 401],
    [
      'API 404',
      async () =>
        t.app.inject({
          url: '/api/nothing-here',
          headers: {
            authorization: `Bearer ${(await t.signedInUser()).token}`,
          },
        }),
      404,
    ],
    [
      '400 validation',
      () => t.app.inject({ method: 'POST', url: '/api/auth/test-echo', payload: {} }),
      400,
    ],
    [
      '400 invalid JSON',
      () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/test-echo',
          headers: { 'content-type': 'application/json' },
          payload: '{"name":',
        }),
      400,
    ],
    [
      '413',
      () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/test-echo',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
        }),
      413,
    ],
    ['500', () => t.app.inject({ url: '/api/health/test-crash' }), 500],
    ['static file', () => t.app.inject({ url: '/favicon.svg' }), 200],
    ['HTML page', () => t.app.inject({ url: '/' }), 200],
    [
      'HTML fallback of a client route',
      () => t.app.inject({ url: '/employers/abc', headers: { accept: 'text/html' } }),
      200,
    ],
    ['non-HTML 404', () => t.app.inject({ url: '/missing.txt' }), 404],
  ];
  for (const [kind, send, status] of responses) {
    it(`are exact on a ${kind} response`, async () => {
      const response = await send();
      expect(response.statusCode).toBe(status);
      expectSecurityHeaders(response.headers);
    });
  }

  it('are on hashed assets of the built UI', async () => {
    const page = await t.app.inject({ url: '/' });
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(asset).toBeDefined();
    const response = await t.app.inject({ url: String(asset) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
    expectSecurityHeaders(response.headers);
  });

  it('give every response a fresh CSP nonce that matches every nonce in the page', async () => {
    const first = await t.app.inject({ url: '/' });
    const second = await t.app.inject({ url: '/' });
    const firstNonce = expectSecurityHeaders(first.headers);
    const secondNonce = expectSecurityHeaders(second.headers);
    expect(firstNonce).toBeDefined();
    expect(firstNonce).not.toBe(secondNonce);
    for (const [response, nonce] of [
      [first, firstNonce],
      [second, secondNonce],
    ] as const) {
      const scriptTags = response.body.match(/<script\b[^>]*>/g) ?? [];
      expect(scriptTags.length).toBeGreaterThan(0);
      for (const tag of scriptTags) expect(tag).toContain(`nonce="${nonce}"`);
      const nonces = [...response.body.matchAll(/nonce="([^"]*)"/g)].map((match) => match[1]);
      expect(new Set(nonces)).toEqual(new Set([nonce]));
      expect(response.body).not.toContain('__CSP_NONCE__');
    }
  });

  it('put the opener policy on the page, the only kind of response browsers apply it to', async () => {
    const page = await t.app.inject({ url: '/' });
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    const json = await t.app.inject({ url: '/api/health/live' });
    expect(json.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('never hand out the same nonce twice, across many blocks of the random pool', () => {
    const nonces = Array.from({ length: 2_000 }, () => freshNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });

  it('does not serve source maps or index.html as a static file', async () => {
    const map = await t.app.inject({ url: '/assets/index.js.map' });
    expect(map.statusCode).toBe(404);
    const index = await t.app.inject({
      url: '/index.html',
      headers: { accept: 'application/json' },
    });
    expect(index.statusCode).toBe(404);
  });
});
