import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOrigin } from '../../src/server/tenancy/request-context.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extend(app) {
      app.get('/api/health/test-origin', async (request) => requestOrigin(request));
    },
  });
});
afterAll(() => t.close());

describe('the request origin recorded in audit records (service-spec §2.8)', () => {
  it('takes the x-forwarded-for and user-agent headers as sent', async () => {
    const response = await t.app.inject({
      url: '/api/health/test-origin',
      headers: { 'x-forwarded-for': '198.51.100.4, 10.0.0.2', 'user-agent': 'Mozilla/5.0 (X11)' },
    });
    expect(response.json()).toEqual({
      ipAddress: '198.51.100.4, 10.0.0.2',
      userAgent: 'Mozilla/5.0 (X11)',
    });
  });

  it('falls back to unknown for each header that is missing or blank', async () => {
    const response = await t.app.inject({
      url: '/api/health/test-origin',
      headers: { 'user-agent': '  ' },
    });
    expect(response.json()).toEqual({ ipAddress: 'unknown', userAgent: 'unknown' });
  });

  it('bounds what a client can make the audit log store', async () => {
    const response = await t.app.inject({
      url: '/api/health/test-origin',
      headers: { 'x-forwarded-for': '1'.repeat(5000), 'user-agent': 'x'.repeat(5000) },
    });
    const { ipAddress, userAgent } = response.json();
    expect(ipAddress).toHaveLength(255);
    expect(userAgent).toHaveLength(255);
  });
});
