import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/contracts/documents.js';
import { SHUTDOWN_DRAIN_MS } from '../../src/server/platform/http/shutdown.js';
import {
  freePort,
  nginxConfigFromShipped,
  nginxSkipReason,
  nginxTest,
  proxyRequest,
  type RunningNginx,
  startNginx,
} from '../helpers/deploy.js';
import { selfSignedCertificate } from '../helpers/tls.js';

/**
 * deploy/nginx as shipped (only ports, upstreams, certificate and paths changed), checked by
 * nginx itself and then run in front of an upstream that answers with what it was sent: the
 * redirect to HTTPS, HSTS, the forwarded client address and scheme, the body size and the
 * unbuffered AI chat stream.
 */

if (nginxSkipReason) console.warn(nginxSkipReason);

const HSTS = 'max-age=63072000; includeSubDomains; preload';
const DOCUMENT_ID = 'cm0doc00000000000000000001';
/** Shaped like a signed download token (src/server/platform/storage/signed-urls.ts). */
const TOKEN = 'v1.0123456789abcdef.eyJkIjoiY20wZG9jIn0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

describe.skipIf(nginxSkipReason)('nginx in front of the service', () => {
  let upstream: Server;
  let nginx: RunningNginx;
  let httpPort: number;
  let httpsPort: number;
  /** When nginx closed each connection to the upstream, and the connection of the last request. */
  const endedByNginxAt = new WeakMap<Socket, number>();
  let lastRequestSocket: Socket | null = null;

  beforeAll(async () => {
    // Stands in for an instance: reports the headers and body size it got, sets HSTS itself
    // (as the service does) and streams /api/ai/chat in two events a second apart.
    upstream = createServer((request, response) => {
      // A download whose instance fails mid-answer: nginx writes an error line about it.
      if (request.url?.startsWith(`/files/${DOCUMENT_ID}/broken-`)) {
        request.socket.destroy();
        return;
      }
      if (request.url === '/api/ai/chat') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('event: delta\ndata: {}\n\n');
        setTimeout(() => response.end('event: done\ndata: {}\n\n'), 1_500);
        return;
      }
      let bytes = 0;
      request.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      request.on('end', () => {
        response.writeHead(200, {
          'content-type': 'application/json',
          'strict-transport-security': 'max-age=1',
        });
        response.end(JSON.stringify({ headers: request.headers, bytes }));
      });
    });
    // An instance keeps an idle connection 72 s (src/server/app.ts): whoever closes one sooner
    // is nginx.
    upstream.keepAliveTimeout = 72_000;
    upstream.on('connection', (socket: Socket) => {
      socket.on('end', () => endedByNginxAt.set(socket, Date.now()));
    });
    upstream.on('request', (request) => {
      lastRequestSocket = request.socket;
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as { port: number }).port;
    httpPort = await freePort();
    httpsPort = await freePort();
    const setup = nginxConfigFromShipped({
      httpPort,
      httpsPort,
      upstreams: [`127.0.0.1:${upstreamPort}`],
      certificate: selfSignedCertificate(),
    });
    const verdict = nginxTest(setup);
    expect(verdict.output).toMatch(/syntax is ok/);
    expect(verdict.ok, verdict.output).toBe(true);
    nginx = await startNginx(setup, httpsPort);
  });

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const echoed = async (headers: Record<string, string> = {}) => {
    const answer = await proxyRequest({ port: httpsPort, tls: true, path: '/api/x', headers });
    expect(answer.status).toBe(200);
    return JSON.parse(answer.body) as { headers: IncomingHttpHeaders; bytes: number };
  };

  it('redirects plain HTTP permanently to the same path on the configured HTTPS origin, whatever the Host', async () => {
    const answer = await proxyRequest({
      port: httpPort,
      tls: false,
      path: '/employers?page=2',
      headers: { host: 'elsewhere.example.com' },
    });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('https://pensions.example.ie/employers?page=2');
  });

  it('sends HSTS once, its own, on proxied answers and on its own errors', async () => {
    const proxied = await proxyRequest({ port: httpsPort, tls: true, path: '/api/x' });
    expect(proxied.headers['strict-transport-security']).toBe(HSTS);
    const tooLarge = await proxyRequest({
      port: httpsPort,
      tls: true,
      method: 'POST',
      path: '/api/x',
      body: Buffer.alloc(27 * 1024 * 1024),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers['strict-transport-security']).toBe(HSTS);
  });

  it("forwards the client's own address, never one the client claims, and the scheme https", async () => {
    const { headers } = await echoed({
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'http',
    });
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('passes the largest document upload the service accepts, with its form', async () => {
    const answer = await proxyRequest({
      port: httpsPort,
      tls: true,
      method: 'POST',
      path: '/api/x',
      body: Buffer.alloc(MAX_DOCUMENT_BYTES + 64 * 1024),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).bytes).toBe(MAX_DOCUMENT_BYTES + 64 * 1024);
  });

  it('closes an idle connection to an instance itself, within the drain an instance gives on SIGTERM', async () => {
    // A rolling restart: an instance drains for SHUTDOWN_DRAIN_MS, then closes what is idle. A
    // connection nginx still holds then may cross a POST nginx is sending and will not retry.
    await echoed();
    const answeredAt = Date.now();
    const socket = lastRequestSocket as Socket | null;
    if (!socket) throw new Error('the upstream saw no request');
    await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DRAIN_MS));
    const closedAt = endedByNginxAt.get(socket);
    expect(closedAt, 'nginx closed the idle connection itself').toBeDefined();
    expect((closedAt as number) - answeredAt).toBeLessThan(SHUTDOWN_DRAIN_MS);
  });

  it('logs no signed download token, in any spelling of its path, nor any query value', async () => {
    const targets = [
      `/files/${DOCUMENT_ID}/${TOKEN}`,
      `/files/${DOCUMENT_ID}/${TOKEN}?sig=${TOKEN}`,
      `//files//${DOCUMENT_ID}//${TOKEN}`,
      `/FILES/${DOCUMENT_ID}/${TOKEN}`,
      `/files%2F${DOCUMENT_ID}%2F${TOKEN}`,
      `/%66iles/${DOCUMENT_ID}/${TOKEN}`,
      `/api/../files/${DOCUMENT_ID}/${TOKEN}`,
      `/files/${TOKEN}`,
      `/api/x?token=${TOKEN}`,
    ];
    for (const target of targets) {
      const answer = await proxyRequest({ port: httpsPort, tls: true, path: target });
      expect(answer.status, target).toBeLessThan(500);
    }
    const redirected = await proxyRequest({
      port: httpPort,
      tls: false,
      path: `/files/${DOCUMENT_ID}/${TOKEN}`,
    });
    expect(redirected.status).toBe(301);
    const logged = nginx.accessLog();
    expect(logged.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(targets.length + 1);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(TOKEN.split('.')[3] as string);
    expect(logged).toContain(`/files/${DOCUMENT_ID}/[REDACTED]`);
  });

  it('writes no download token to the error log when the instance fails the download', async () => {
    const answer = await proxyRequest({
      port: httpsPort,
      tls: true,
      path: `/files/${DOCUMENT_ID}/broken-${TOKEN}`,
    });
    expect(answer.status).toBe(502);
    expect(nginx.accessLog()).toContain(`/files/${DOCUMENT_ID}/[REDACTED]`);
    expect(nginx.errorLog()).not.toContain(TOKEN);
  });

  it('passes the AI chat stream on as it is written, not when it ends', async () => {
    const { request } = await import('node:https');
    const firstEventAfterMs = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const call = request(
        {
          host: '127.0.0.1',
          port: httpsPort,
          path: '/api/ai/chat',
          rejectUnauthorized: false,
          agent: false,
        },
        (response) => {
          response.once('data', () => {
            resolve(Date.now() - started);
            response.resume();
          });
        },
      );
      call.on('error', reject);
      call.end();
    });
    expect(firstEventAfterMs).toBeLessThan(1_000);
  });
});
