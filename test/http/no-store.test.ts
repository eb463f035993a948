import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { concretePath, watchRoutes } from '../helpers/routes.js';

/**
 * Responses that carry personal data are never stored by a browser or a shared cache
 * (docs/decisions/0008-http-answers.md).
 * The rule (security-headers.ts): every /api response but a health probe's is `no-store`.
 */

// Top-level: the tests below are generated from the routes the app registers.
const watch = watchRoutes();
const t: TestApp = await buildTestApp();
watch.stop();
afterAll(() => t.close());

const apiRoutes = watch.routes.filter((route) => route.url.startsWith('/api/'));
const isProbe = (url: string) => url.startsWith('/api/health/');

describe('Cache-Control on API responses', () => {
  it('covers the routes that answer with personal data', () => {
    const names = apiRoutes.map((route) => `${route.method} ${route.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/members/:id',
        'GET /api/members/:id/export',
        'GET /api/audit',
        'GET /api/users',
        'GET /api/me',
        'POST /api/auth/signin',
      ]),
    );
  });

  for (const route of apiRoutes.filter(({ url }) => !isProbe(url))) {
    it(`is no-store on every answer of ${route.method} ${route.url}, signed in or not`, async () => {
      const { token } = await t.signedInUser({ role: 'BrokerAdmin' });
      const url = concretePath(route.url);
      const method = route.method as 'GET';
      const signedIn = await t.app.inject({
        method,
        url,
        remoteAddress: uniqueClientAddress(),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(signedIn.headers['cache-control']).toBe('no-store');
      const anonymous = await t.app.inject({ method, url, remoteAddress: uniqueClientAddress() });
      expect(anonymous.headers['cache-control']).toBe('no-store');
    });
  }

  it('is no-store on a signed-in read that returns records', async () => {
    const { user, token } = await t.signedInUser({ role: 'BrokerAdmin' });
    const response = await t.app.inject({
      url: '/api/me',
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(user.id);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is no-store on 404 and 429 answers under /api', async () => {
    const { token } = await t.signedInUser();
    const missing = await t.app.inject({
      url: '/api/nothing-here',
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    const remoteAddress = uniqueClientAddress();
    let limited = await t.app.inject({ url: '/api/auth/session', remoteAddress });
    while (limited.statusCode !== 429) {
      limited = await t.app.inject({ url: '/api/auth/session', remoteAddress });
    }
    expect(limited.headers['cache-control']).toBe('no-store');
  });

  it('is left off health probes, which carry no personal data', async () => {
    const probes = apiRoutes.filter(({ url, method }) => isProbe(url) && method === 'GET');
    expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes) {
      const response = await t.app.inject({ url: probe.url, remoteAddress: uniqueClientAddress() });
      expect(response.headers['cache-control']).toBeUndefined();
    }
  });

  it('leaves the page no-store and hashed assets cacheable, as the web UI sets them', async () => {
    const page = await t.app.inject({ url: '/' });
    expect(page.headers['cache-control']).toBe('no-store');
    const asset = watch.routes.find(({ url }) => /^\/assets\/.+\.js$/.test(url));
    const response = await t.app.inject({ url: String(asset?.url) });
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
