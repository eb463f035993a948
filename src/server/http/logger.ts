import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

const REDACTED = '[REDACTED]';

/**
 * Keys whose values never reach a log line, wherever they appear. Matching is on the key name
 * (case-insensitive, ignoring `_` and `-`), at any depth.
 */
const SECRET_KEYS = new Set([
  'authorization',
  'cookie',
  'setcookie',
  'password',
  'newpassword',
  'currentpassword',
  'passwordhash',
  'token',
  'accesstoken',
  'refreshtoken',
  'resettoken',
  'secret',
  'apikey',
  'email',
  'emailaddress',
  'ppsnumber',
  'ppsn',
  'ppsnumberencrypted',
]);

/** Free-text shapes that are secrets whatever key holds them. */
const SECRET_PATTERNS: RegExp[] = [
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, // e-mail address
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, // JWT
  /\b\d{7}[A-Wa-w][ABHTWXabhtwx]?\b/g, // PPS number
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, // credentials in a header value
  /\b[0-9a-f]{64}\b/gi, // 256-bit keys and reset tokens in hex
];

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** `"password":"…"`, `password=…`, `token: …` inside free text (error messages quoting input). */
const SECRET_ASSIGNMENT =
  /(["']?)((?:new|current)?[_-]?pass(?:word|wd)?|pwd|(?:access|refresh|reset)?[_-]?token|secret|api[_-]?key|authorization|cookie)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,&;}]+)/gi;

export function scrubText(text: string): string {
  let result = text.replace(SECRET_ASSIGNMENT, `$1$2$1$3"${REDACTED}"`);
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, REDACTED);
  return result;
}

/** A deep copy of a log object with secrets replaced; shapes other than plain data are kept. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  if (value instanceof Error) {
    return scrub(pino.stdSerializers.err(value), depth);
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEYS.has(normaliseKey(key)) ? REDACTED : scrub(item, depth + 1);
  }
  return copy;
}

/** The URL as logged: query values are dropped (reset links carry tokens there). */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return scrubText(url);
  const names = new URLSearchParams(url.slice(queryStart + 1)).keys();
  const query = [...new Set(names)].map(
    (name) => `${scrubText(encodeURIComponent(name))}=${REDACTED}`,
  );
  return `${scrubText(url.slice(0, queryStart))}?${query.join('&')}`;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'pension-admin' },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'message',
      hooks: {
        // Messages are free text written by people: scrub them like any other value.
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as typeof args,
          );
        },
      },
      formatters: {
        // Runs before the serializers: req and res are left to theirs, which log only safe fields.
        log: (object) => {
          const { req, res, ...rest } = object;
          const scrubbed = scrub(rest) as Record<string, unknown>;
          if (req !== undefined) scrubbed.req = req;
          if (res !== undefined) scrubbed.res = res;
          return scrubbed;
        },
      },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: loggableUrl(request.url),
          remoteAddress: request.ip,
        }),
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
