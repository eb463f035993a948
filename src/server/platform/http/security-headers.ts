import { randomFillSync } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routedPathOf } from './api-paths.js';

declare module 'fastify' {
  interface FastifyReply {
    /** Fresh for every response; the HTML page puts it on its script and style tags. */
    cspNonce: string;
  }
}

/**
 * The headers of docs/api.md ("HTTPS and headers"), byte for byte, on every response. The CSP opens
 * exactly as it says there; the rest is the strictest policy the UI works under. Inline style
 * attributes stay allowed (component libraries set CSS variables through them); inline scripts and
 * styles need the nonce.
 */
const CSP_TAIL = [
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function contentSecurityPolicy(nonce: string): string {
  return `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'; ${CSP_TAIL}`;
}

/**
 * Nonces come from the CSPRNG in blocks: one fill, encoded once, serves 256 responses, each nonce
 * used once. Drawing and encoding 16 bytes per response costs more than the rest of this plugin.
 * 18 bytes (144 bits, above the 128 CSP asks for) encode to 24 base64 characters without padding,
 * so each nonce is a plain slice of the encoded block.
 */
const NONCE_BYTES = 18;
const NONCE_CHARS = (NONCE_BYTES / 3) * 4;
const NONCES_PER_BLOCK = 256;
const nonceBlock = Buffer.alloc(NONCE_BYTES * NONCES_PER_BLOCK);
let encodedNonces = '';
let nextNonce = NONCES_PER_BLOCK;

export function freshNonce(): string {
  if (nextNonce === NONCES_PER_BLOCK) {
    randomFillSync(nonceBlock);
    encodedNonces = nonceBlock.toString('base64');
    nextNonce = 0;
  }
  const start = nextNonce * NONCE_CHARS;
  nextNonce += 1;
  return encodedNonces.slice(start, start + NONCE_CHARS);
}

export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Headers only a page acts on. Browsers apply the opener policy to documents they navigate to;
 * on every other response it is bytes that change nothing, and each header costs every response.
 */
export const DOCUMENT_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * Every /api response but a health probe's is `Cache-Control: no-store`: any of them
 * may carry personal data (a member, an export, an audit page, a revealed PPS number) and none is
 * meant to be kept by a browser or a shared cache; an error or a 429 is not worth keeping either,
 * and a rule by path cannot forget a new route. A route may still set its own value. The app page
 * sets no-store itself; hashed assets are cacheable (web-ui.ts). Health probes carry no personal
 * data, and each header costs every probe (docs/decisions/0006-security-headers-without-helmet.md).
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const nonce = freshNonce();
  reply.cspNonce = nonce;
  reply.headers(STATIC_SECURITY_HEADERS);
  reply.header('content-security-policy', contentSecurityPolicy(nonce));
  const routed = routedPathOf(request);
  if (routed.api && !routed.health) reply.header('cache-control', 'no-store');
}

const securityHeaders: FastifyPluginAsync = async (app) => {
  app.decorateReply('cspNonce', '');
  // onRequest, before any other hook can answer: a 401, 404 or 413 carries the headers too.
  // Callback style: an async hook costs every request a promise round trip.
  app.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request, reply);
    done();
  });
};

export default fp(securityHeaders, { name: 'security-headers' });
