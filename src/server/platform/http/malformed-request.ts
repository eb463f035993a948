import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { routedPathOf } from './api-paths.js';
import {
  applySecurityHeaders,
  contentSecurityPolicy,
  freshNonce,
  STATIC_SECURITY_HEADERS,
} from './security-headers.js';

/**
 * Fastify's router answers URLs it cannot decode before any hook runs. This takes over those
 * answers so they carry the security headers and never echo the URL. A malformed URL names no
 * resource; under /api it is answered as the gate answers an anonymous request.
 */
export function answerMalformedRequest(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  applySecurityHeaders(request, reply);
  if (routedPathOf(request).requiresSession) {
    reply.code(401).send({ error: 'Unauthorized' });
    return;
  }
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply.code(tooLong ? 414 : 400).send({ error: tooLong ? 'URI too long' : 'Bad request' });
}

/** The answers to a request Node's HTTP parser refused, by the parser's error code. */
const PARSER_REFUSALS: Record<string, { status: number; error: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, error: 'Request header fields too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'Request timeout' },
};
const BAD_REQUEST = { status: 400, error: 'Bad request' };

/**
 * Node's reason phrases, read from the module object itself: an ESM `import … from 'node:http'`
 * makes Node evaluate every export of the module, and its `WebSocket` and `MessageEvent` getters
 * load the whole bundled fetch client (undici), which an instance that never calls `fetch` would
 * otherwise carry (docs/decisions/0079-lazy-loading-for-idle-memory.md).
 */
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * Node's `clientError`: a request its HTTP parser refused (a header too large, a malformed request
 * line or header, a body framing it cannot read) never reaches Fastify, so this answers it on the
 * socket, as a complete response with the headers every answer carries (docs/api.md, "HTTPS and
 * headers") and the `{ "error" }` body of every error ("Errors"), then closes the connection: what
 * follows on it cannot be framed. Nothing is logged: the error holds the raw bytes the client
 * sent, cookies and bearers included, and a refused parse names no route.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, error: message } = PARSER_REFUSALS[error.code ?? ''] ?? BAD_REQUEST;
  const body = JSON.stringify({ error: message });
  const headers: Record<string, string> = {
    ...STATIC_SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy(freshNonce()),
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    date: new Date().toUTCString(),
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}
