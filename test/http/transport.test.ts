import { once } from 'node:events';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpsRedirectServer } from '../../src/server/platform/http/redirect-server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { rawGet } from '../helpers/raw-http.js';
import { selfSignedCertificate } from '../helpers/tls.js';

let shared: TestDatabase;
beforeAll(async () => {
  shared = await openTestDatabase();
});
afterAll(() => shared.dispose());

describe('plain HTTP in staging and production (docs/api.md, "HTTPS and headers")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      database: shared.database,
      env: { APP_ENV: 'staging', TRUST_PROXY: '127.0.0.1' },
    });
  });
  afterAll(() => t.app.close());

  it('is redirected with 301 to the configured HTTPS origin, never to the Host header', async () => {
    const response = await t.app.inject({
      url: '/api/schemes?page=2',
      headers: { host: 'evil.example' },
      remoteAddress: '203.0.113.9',
    });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('https://pensions.example.ie/api/schemes?page=2');
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=63072000; includeSubDomains; preload',
    );
  });

  it('leaves health probes reachable so load balancers can probe', async () => {
    const response = await t.app.inject({ url: '/api/health/live', remoteAddress: '203.0.113.9' });
    expect(response.statusCode).toBe(200);
  });

  it('trusts X-Forwarded-Proto from a trusted proxy only', async () => {
    const viaProxy = await t.app.inject({
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '127.0.0.1',
    });
    expect(viaProxy.statusCode).toBe(200);
    const forged = await t.app.inject({
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '203.0.113.9',
    });
    expect(forged.statusCode).toBe(301);
  });

  it('is not redirected in development, where the service runs on plain localhost', async () => {
    const development = await buildTestApp({
      database: shared.database,
      env: { APP_ENV: 'development' },
    });
    const response = await development.app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    await development.app.close();
  });
});

describe('TLS served by the service itself', () => {
  let t: TestApp;
  let port: number;
  let certFile: string;
  beforeAll(async () => {
    const certificate = selfSignedCertificate();
    certFile = certificate.certFile;
    const keyFile = certificate.keyFile;
    t = await buildTestApp({
      database: shared.database,
      env: { APP_ENV: 'production', TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.app.close());

  function handshake(maxVersion: 'TLSv1.2' | 'TLSv1.3') {
    return new Promise<string>((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port, maxVersion, rejectUnauthorized: false },
        () => {
          const protocol = socket.getProtocol() ?? 'unknown';
          socket.end();
          resolve(protocol);
        },
      );
      socket.on('error', reject);
    });
  }

  it('speaks TLS 1.3', async () => {
    expect(await handshake('TLSv1.3')).toBe('TLSv1.3');
  });

  it('refuses clients that offer nothing newer than TLS 1.2', async () => {
    await expect(handshake('TLSv1.2')).rejects.toThrow();
  });

  it('answers over HTTPS without redirecting', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
        socket.write(
          'GET /api/health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        );
      });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        received += chunk;
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(body).toMatch(/^HTTP\/1\.1 200/);
    expect(body).toContain('{"status":"ok"}');
  });

  it('redirects a plain-HTTP listener to HTTPS with 301', async () => {
    const server = createHttpsRedirectServer(new URL('https://pensions.example.ie'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const response = await rawGet((server.address() as { port: number }).port, '/employers?x=1');
    server.close();
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('https://pensions.example.ie/employers?x=1');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});
