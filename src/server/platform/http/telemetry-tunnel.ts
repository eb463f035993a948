import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { scrubTelemetry } from '../../../contracts/telemetry-text.js';
import type { Config } from '../config/config.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { clientKey } from './rate-limits.js';

/**
 * POST /monitoring: the browser's error telemetry (docs/decisions/0033-browser-error-telemetry.md),
 * tunnelled through the service so that ad-blockers do not drop it. The tunnel is no open proxy
 * (CVE-2023-46729): it forwards an envelope only when its header names the configured DSN exactly,
 * only to the ingest URL derived from that DSN at start-up, never following a redirect, and only
 * after scrubbing. Nothing in a request can make the service contact any other host.
 */

export const TUNNEL_PATH = '/monitoring';
/** Browser error events are a few kilobytes; replays and attachments, the large items, are dropped anyway. */
export const TUNNEL_BODY_LIMIT_BYTES = 200 * 1024;
/** Per client IP, beside (not within) the /api limits: telemetry must not eat a user's API allowance. */
export const TUNNEL_RATE_LIMIT = { max: 60, windowMs: 60_000 } as const;
/** A slow or unreachable ingest must not hold requests, and sockets, for long. */
export const UPSTREAM_TIMEOUT_MS = 5_000;
/** Forwards waiting on the ingest at once; beyond that envelopes are dropped, not queued. */
export const MAX_FORWARDS_IN_FLIGHT = 16;

/**
 * Item types whose payload is one JSON document: those are scrubbed and forwarded. Everything else
 * (replays, attachments, profiles, logs and any type added later) is dropped unread: a replay or an
 * attachment can hold anything the page showed, and it cannot be scrubbed field by field.
 */
const FORWARDED_ITEM_TYPES = new Set([
  'event',
  'transaction',
  'session',
  'sessions',
  'client_report',
  'user_report',
  'feedback',
]);

class InvalidEnvelope extends Error {}

interface ParsedEnvelope {
  header: Record<string, unknown>;
  items: Array<{ type: string; payload: Buffer }>;
}

const NEWLINE = 0x0a;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonObject(bytes: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidEnvelope();
  }
  if (!isPlainObject(value)) throw new InvalidEnvelope();
  return value;
}

/**
 * The envelope format: a JSON header line, then items, each a JSON header line and a payload that
 * is `length` bytes when the header says so, else the rest of the line.
 */
export function parseEnvelope(body: Buffer): ParsedEnvelope {
  let offset = body.indexOf(NEWLINE);
  const header = parseJsonObject(body.subarray(0, offset === -1 ? body.length : offset));
  offset = offset === -1 ? body.length : offset + 1;
  const items: ParsedEnvelope['items'] = [];
  // A trailing newline (or several) after the last item is allowed, as in the SDK's own parser.
  while (offset < body.length && body.subarray(offset).some((byte) => byte !== NEWLINE)) {
    const headerEnd = body.indexOf(NEWLINE, offset);
    if (headerEnd === -1) throw new InvalidEnvelope();
    const itemHeader = parseJsonObject(body.subarray(offset, headerEnd));
    const { type, length } = itemHeader;
    if (typeof type !== 'string') throw new InvalidEnvelope();
    let payloadEnd: number;
    if (length === undefined) {
      const lineEnd = body.indexOf(NEWLINE, headerEnd + 1);
      payloadEnd = lineEnd === -1 ? body.length : lineEnd;
    } else {
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
        throw new InvalidEnvelope();
      }
      payloadEnd = headerEnd + 1 + length;
      if (payloadEnd > body.length) throw new InvalidEnvelope();
      if (payloadEnd < body.length && body[payloadEnd] !== NEWLINE) throw new InvalidEnvelope();
    }
    items.push({ type, payload: body.subarray(headerEnd + 1, payloadEnd) });
    offset = payloadEnd + 1;
  }
  return { header, items };
}

/** The envelope as it leaves: header and JSON items scrubbed, every other item gone. */
function rebuildEnvelope({ header, items }: ParsedEnvelope, dsn: string): Buffer | null {
  const parts: string[] = [];
  for (const { type, payload } of items) {
    if (!FORWARDED_ITEM_TYPES.has(type)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      continue;
    }
    const json = JSON.stringify(scrubTelemetry(parsed));
    parts.push(JSON.stringify({ type, length: Buffer.byteLength(json) }), json);
  }
  if (parts.length === 0) return null;
  // The DSN is put back as configured: its `key@host` is shaped like an e-mail address.
  const { dsn: _checked, ...rest } = header;
  const envelopeHeader = { ...(scrubTelemetry(rest) as Record<string, unknown>), dsn };
  return Buffer.from(`${[JSON.stringify(envelopeHeader), ...parts].join('\n')}\n`);
}

/** Rate-limit hints of the ingest, passed on so that browsers back off; only their expected shape. */
const RATE_LIMIT_HEADERS = ['x-sentry-rate-limits', 'retry-after'] as const;
const RATE_LIMIT_HEADER_SHAPE = /^[A-Za-z0-9:;,_. -]{1,512}$/;

function passOnRateLimitHints(upstream: Response, reply: FastifyReply): void {
  for (const name of RATE_LIMIT_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null && RATE_LIMIT_HEADER_SHAPE.test(value)) reply.header(name, value);
  }
}

export interface TelemetryTunnelOptions {
  telemetry: Config['telemetry'];
  /** The rate-limit counters of the /api limits (shared through Redis when configured). */
  store: RateLimitStore;
}

/**
 * Encapsulated on purpose (no fastify-plugin): the envelope body parsers below apply to this
 * route only, and the service's JSON and form parsers do not apply to it.
 */
const telemetryTunnel: FastifyPluginAsync<TelemetryTunnelOptions> = async (
  app,
  { telemetry, store },
) => {
  app.removeAllContentTypeParsers();
  // What the SDK sends: its own media type, or text/plain when fetch is given a string body.
  app.addContentTypeParser(
    ['application/x-sentry-envelope', 'text/plain'],
    { parseAs: 'buffer' },
    (_request, body, done) => done(null, body),
  );

  let forwardsInFlight = 0;

  async function limitRate(request: FastifyRequest, reply: FastifyReply) {
    const count = await store.hit(
      `monitoring:${clientKey(request.ip)}`,
      TUNNEL_RATE_LIMIT.windowMs,
    );
    if (count.count > TUNNEL_RATE_LIMIT.max) {
      return reply
        .code(429)
        .header('retry-after', String(Math.ceil(count.resetInMs / 1000)))
        .send({ error: 'Too many requests' });
    }
  }

  async function forward(
    request: FastifyRequest,
    reply: FastifyReply,
    envelope: Buffer,
    ingestUrl: URL,
  ) {
    if (forwardsInFlight >= MAX_FORWARDS_IN_FLIGHT) {
      request.log.warn('telemetry envelope dropped: too many forwards waiting on the ingest');
      return reply.code(503).header('retry-after', '60').send({ error: 'Telemetry unavailable' });
    }
    forwardsInFlight += 1;
    try {
      const upstream = await fetch(ingestUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope' },
        body: envelope,
        // A 3xx comes back as it is: the envelope never follows it anywhere.
        redirect: 'manual',
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
      // The body is never read, let alone echoed: only the status class goes back.
      await upstream.body?.cancel().catch(() => {});
      passOnRateLimitHints(upstream, reply);
      if (upstream.status >= 200 && upstream.status < 300) {
        return reply.code(200).send({ status: 'accepted' });
      }
      request.log.warn({ upstreamStatus: upstream.status }, 'telemetry ingest refused an envelope');
    } catch (error) {
      // Only the kind of failure: the envelope and the ingest's answer stay out of the log.
      const failure = error instanceof Error ? error.name : 'unknown';
      request.log.warn({ failure }, 'telemetry ingest unreachable');
    } finally {
      forwardsInFlight -= 1;
    }
    return reply.code(502).send({ error: 'Telemetry unavailable' });
  }

  app.post(
    TUNNEL_PATH,
    { schema: { hide: true }, bodyLimit: TUNNEL_BODY_LIMIT_BYTES, onRequest: limitRate },
    async (request, reply) => {
      if (!telemetry) return reply.code(200).send({ status: 'accepted' });
      const body = request.body;
      if (!Buffer.isBuffer(body)) return reply.code(400).send({ error: 'Invalid envelope' });
      let parsed: ParsedEnvelope;
      try {
        parsed = parseEnvelope(body);
      } catch (error) {
        if (!(error instanceof InvalidEnvelope)) throw error;
        request.log.info('telemetry envelope refused: malformed');
        return reply.code(400).send({ error: 'Invalid envelope' });
      }
      if (parsed.header.dsn !== telemetry.dsn) {
        request.log.info('telemetry envelope refused: not for the configured DSN');
        return reply.code(400).send({ error: 'Invalid envelope' });
      }
      const envelope = rebuildEnvelope(parsed, telemetry.dsn);
      if (!envelope) return reply.code(200).send({ status: 'accepted' });
      return forward(request, reply, envelope, telemetry.ingestUrl);
    },
  );
};

export default telemetryTunnel;
