import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bodyDeadline from '../../src/server/platform/http/body-deadline.js';
import securityHeaders from '../../src/server/platform/http/security-headers.js';

const DEFAULT_MS = 300;
const UPLOAD_MS = 3_000;

/** Sends `head` and then each piece of `pieces` after `gapMs`; resolves with what came back. */
function trickle(port: number, head: string, pieces: string[], gapMs: number) {
  return new Promise<{ text: string; closed: boolean }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('error', () => undefined);
    socket.write(head);
    const sendNext = (index: number) => {
      if (index >= pieces.length || socket.destroyed) {
        // A complete exchange leaves the connection open: end it once the answer is in.
        setTimeout(() => socket.end(), 200);
        return;
      }
      socket.write(pieces[index] as string);
      timer = setTimeout(() => sendNext(index + 1), gapMs);
    };
    timer = setTimeout(() => sendNext(0), gapMs);
  });
}

function post(path: string, contentType: string, length: number): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;
}

describe('request body deadlines', () => {
  let app: FastifyInstance;
  let port: number;
  const received: string[] = [];

  beforeAll(async () => {
    app = Fastify();
    await app.register(securityHeaders);
    await app.register(bodyDeadline, { defaultMs: DEFAULT_MS });
    app.post('/api/things', async (request) => {
      received.push(JSON.stringify(request.body));
      return { ok: true };
    });
    app.register(async (uploads) => {
      uploads.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
      uploads.post('/api/upload', { config: { bodyDeadlineMs: UPLOAD_MS } }, async (request) => {
        received.push(String(request.body));
        return { ok: true };
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });

  afterAll(() => app.close());

  it('answers 408 with the security headers and closes the connection when a body trickles past its deadline', async () => {
    const body = '{"name":"a trickled body"}';
    const pieces = Array.from({ length: Math.ceil(body.length / 4) }, (_, index) =>
      body.slice(index * 4, index * 4 + 4),
    );
    const { text, closed } = await trickle(
      port,
      post('/api/things', 'application/json', body.length),
      pieces,
      100,
    );
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('content-security-policy: default-src');
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain('{"error":"Request timeout"}');
    expect(received).not.toContain(body);
  });

  it('accepts a body that arrives within its deadline', async () => {
    const body = '{"name":"in time"}';
    const { text } = await trickle(
      port,
      post('/api/things', 'application/json', body.length),
      [body.slice(0, 5), body.slice(5)],
      50,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain(body);
  });

  it('gives an upload route its own longer deadline', async () => {
    const body = 'PPSN,Period\n1234567T,2026-01\n';
    const pieces = Array.from({ length: 5 }, (_, index) => body.slice(index * 6, index * 6 + 6));
    // Five pieces 150 ms apart: far past the default deadline, well within the upload's.
    const { text } = await trickle(port, post('/api/upload', 'text/csv', body.length), pieces, 150);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain(body);
  });

  it('does not arm a deadline for requests without a body', async () => {
    const socket = connect(port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.write('GET /api/missing HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    // The kept-alive connection outlives the body deadline: nothing was armed against it.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_MS * 2));
    expect(socket.destroyed).toBe(false);
    socket.destroy();
  });
});
