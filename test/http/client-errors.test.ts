import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpsRedirectServer } from '../../src/server/platform/http/redirect-server.js';
import { STATIC_SECURITY_HEADERS } from '../../src/server/platform/http/security-headers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type RawResponse, rawRequest } from '../helpers/raw-http.js';

/**
 * Requests Node's HTTP parser refuses never reach Fastify. Their answers must still be complete:
 * the security headers and a JSON `{ "error" }` body (docs/api.md, "HTTPS and headers", "Errors").
 */

let t: TestApp;
let port: number;
let redirect: Server;
let redirectPort: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  redirect = createHttpsRedirectServer(new URL('https://pensions.example.ie'));
  await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
  redirectPort = (redirect.address() as { port: number }).port;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => redirect.close(resolve));
});

const REFUSED: Array<[string, string, number]> = [
  [
    'a header larger than the parser takes',
    `GET /api/me HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
  ],
  [
    'more header bytes in many headers',
    `GET / HTTP/1.1\r\nHost: localhost\r\n${Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(60)}\r\n`).join('')}\r\n`,
    431,
  ],
  ['a request line that is no request line', 'THIS IS NOT HTTP\r\n\r\n', 400],
  ['a method with a space in its target', 'GET /a b c HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
  ['a header name with a space', 'GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n', 400],
  [
    'a chunked body that is not chunked',
    'POST /api/auth/forgot-password HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n',
    400,
  ],
  [
    'both Content-Length and Transfer-Encoding',
    'POST /api/auth/forgot-password HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
  ],
];

function expectCompleteAnswer(answer: RawResponse, status: number, label: string) {
  expect(answer.statusCode, label).toBe(status);
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
    expect(answer.headers[name], `${label}: ${name}`).toBe(value);
  }
  expect(answer.headers['content-security-policy'], label).toMatch(
    /^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/]{24}'/,
  );
  expect(answer.headers['cache-control'], label).toBe('no-store');
  expect(answer.headers['content-type'], label).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length']), label).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body), label).toEqual(['error']);
  expect(body.error, label).toEqual(expect.any(String));
}

describe('a request the HTTP parser refuses', () => {
  it('is answered with the security headers and a JSON error body, 431 or 400', async () => {
    for (const [label, request, status] of REFUSED) {
      expectCompleteAnswer(await rawRequest(port, request), status, label);
    }
  });

  it('carries the same security headers as an answer the app writes', async () => {
    const fromApp = await rawRequest(
      port,
      'GET /api/me HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    const fromParser = await rawRequest(port, 'THIS IS NOT HTTP\r\n\r\n');
    const names = (answer: RawResponse) =>
      Object.keys(answer.headers).filter(
        (name) => name in STATIC_SECURITY_HEADERS || name === 'content-security-policy',
      );
    expect(names(fromParser).sort()).toEqual(names(fromApp).sort());
  });

  it('is answered the same way by the plain-HTTP redirect listener, which reads no body', async () => {
    for (const [label, request, status] of REFUSED.filter(([, text]) => text.startsWith('GET'))) {
      expectCompleteAnswer(await rawRequest(redirectPort, request), status, label);
    }
  });
});
