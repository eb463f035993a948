import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/server/app.js';
import { requestOrigin } from '../../src/server/platform/tenancy/request-context.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const addOriginRoute = (app: App) => {
  app.get('/api/health/test-origin', async (request) => requestOrigin(request));
};

let t: TestApp;
let behindProxy: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ extend: addOriginRoute });
  behindProxy = await buildTestApp({
    env: { TRUST_PROXY: '10.0.0.0/8' },
    database: t.database,
    extend: addOriginRoute,
  });
});
afterAll(async () => {
  await behindProxy.close();
  await t.close();
});

describe('the request origin recorded in audit records (docs/api.md, "The audit log")', () => {
  it('takes the x-forwarded-for and user-agent headers as sent', async () => {
    const response = await t.app.inject({
      url: '/api/health/test-origin',
      remoteAddress: '192.0.2.44',
      headers: { 'x-forwarded-for': '198.51.100.4, 10.0.0.2', 'user-agent': 'Mozilla/5.0 (X11)' },
    });
    expect(response.json()).toEqual({
      ipAddress: '198.51.100.4, 10.0.0.2',
      userAgent: 'Mozilla/5.0 (X11)',
      // No TRUST_PROXY: the header is evidence only, the client is the socket.
      clientAddress: '192.0.2.44',
    });
  });

  it('falls back to unknown for each header that is missing or blank', async () => {
    const response = await t.app.inject({
      url: '/api/health/test-origin',
      remoteAddress: '192.0.2.45',
      headers: { 'user-agent': '  ' },
    });
    expect(response.json()).toEqual({
      ipAddress: 'unknown',
      userAgent: 'unknown',
      clientAddress: '192.0.2.45',
    });
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

describe('the client address the server trusted', () => {
  it('is what a TRUST_PROXY peer forwarded, beside the header as sent', async () => {
    const response = await behindProxy.app.inject({
      url: '/api/health/test-origin',
      remoteAddress: '10.1.2.3',
      headers: { 'x-forwarded-for': '203.0.113.99, 198.51.100.23' },
    });
    // The right-most address the trusted proxy did not itself add: the client it saw.
    expect(response.json()).toMatchObject({
      ipAddress: '203.0.113.99, 198.51.100.23',
      clientAddress: '198.51.100.23',
    });
  });

  it('is the socket when the peer is not a trusted proxy, whatever the header says', async () => {
    const response = await behindProxy.app.inject({
      url: '/api/health/test-origin',
      remoteAddress: '192.0.2.77',
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    expect(response.json()).toMatchObject({
      ipAddress: '203.0.113.99',
      clientAddress: '192.0.2.77',
    });
  });
});
