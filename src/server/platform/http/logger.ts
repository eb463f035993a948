import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger,
} from 'pino';
import { redactUrlCredentials } from '../../../contracts/url-redaction.js';
import { databaseErrorSummary, isDatabaseErrorItself } from '../db/database-errors.js';
import { routedPathOf } from './api-paths.js';

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
  'contactemail',
  'phone',
  'contactphone',
  'phonenumber',
  'ppsnumber',
  'ppsn',
  'ppsnumberencrypted',
]);

/** Free-text shapes that are secrets whatever key holds them. */
const SECRET_PATTERNS: RegExp[] = [
  // Starts only where a run of address characters starts, and bounded like real addresses (RFC
  // 5321 lengths), so a long run of letters costs linear time. Unbounded, every position of the
  // run was scanned to its end: quadratic, a slow-request attack through a long URL. Letters and
  // digits of any script: `seán@gmaíl.ie` is an address too (RFC 6531).
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}.-]{1,253}\.[\p{L}\p{N}-]{2,63}/gu, // e-mail address
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, // JWT
  /\b\d{7}[A-Wa-w][ABHTWXabhtwx]?\b/g, // PPS number
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, // credentials in a header value
  /\b[0-9a-f]{64}\b/gi, // 256-bit keys and reset tokens in hex
];

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/**
 * `"password":"…"`, `password=…`, `token: …` inside free text (error messages quoting input). A
 * value the URL redaction already replaced is left as it is.
 */
const SECRET_ASSIGNMENT =
  /(["']?)((?:new|current)?[_-]?pass(?:word|wd)?|pwd|(?:access|refresh|reset)?[_-]?token|secret|api[_-]?key|authorization|cookie)\1(\s*[:=]\s*)(?!\[REDACTED\])("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,&;}]+)/gi;

/**
 * Every secret shape above contains one of these; text without any (most log text: routes,
 * ids, status words) skips the replacements, which keeps logging off the request's hot path.
 */
const MIGHT_HOLD_SECRET = /[@=:]|\d{7}|eyJ|[0-9a-f]{64}|bearer|basic/i;

/** Longer free text is cut before it is scrubbed: no log line needs more, and scrubbing stays cheap. */
export const MAX_LOGGED_TEXT = 4_096;

const WHITE_SPACE = /\s/;

/**
 * The cut drops the word it falls in, which could be the start of an address or a token. Found
 * by walking back from the cut: `/\S*$/` retried every start position of the last line's words.
 */
function cutAtWord(text: string): string {
  let end = MAX_LOGGED_TEXT;
  while (end > 0 && !WHITE_SPACE.test(text[end - 1] as string)) end -= 1;
  return `${text.slice(0, end)}…[truncated]`;
}

export function scrubText(text: string): string {
  const bounded = redactUrlCredentials(
    text.length > MAX_LOGGED_TEXT ? cutAtWord(text) : text,
    REDACTED,
  );
  if (!MIGHT_HOLD_SECRET.test(bounded)) return bounded;
  let result = bounded.replace(SECRET_ASSIGNMENT, `$1$2$1$3"${REDACTED}"`);
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, REDACTED);
  return result;
}

/** A deep copy of a log object with secrets replaced; shapes other than plain data are kept. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  if (value instanceof Error) return serializeError(value);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEYS.has(normaliseKey(key)) ? REDACTED : scrub(item, depth + 1);
  }
  return copy;
}

const LOGGABLE_CODE = /^[A-Za-z0-9_.-]{1,40}$/;
/** Causes followed when an error is logged; deeper ones are left out. */
const MAX_CAUSES = 4;

/** A stack without its first lines, which repeat the message: what remains is `at …` frames. */
function framesOnly(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const firstFrame = stack.search(/\n\s+at /);
  return firstFrame === -1 ? undefined : scrubText(stack.slice(firstFrame + 1));
}

/**
 * An error as a log line holds it: its type, message, stack, code and status, and its causes, each
 * scrubbed; no other property. A database error (docs/decisions/0035-control-characters-and-database-errors.md) is logged with its SQLSTATE,
 * constraint and table only: its message, detail, query and parameters quote the row it was
 * writing, and its stack begins with that message, so only the frames are kept. This is the one
 * error serializer of the logger, so the same holds wherever an error is logged from: a request,
 * the mail worker, an import, the CLI.
 */
export function serializeError(error: Error, depth = 0): Record<string, unknown> {
  const type = error.constructor?.name || error.name || 'Error';
  const { code, statusCode, cause } = error as {
    code?: unknown;
    statusCode?: unknown;
    cause?: unknown;
  };
  const summary = databaseErrorSummary(error);
  const serialized: Record<string, unknown> =
    summary !== null
      ? {
          type,
          message: isDatabaseErrorItself(error) ? 'database error' : scrubText(error.message),
          ...summary,
          stack: isDatabaseErrorItself(error)
            ? framesOnly(error.stack)
            : scrubText(error.stack ?? ''),
        }
      : { type, message: scrubText(error.message), stack: scrubText(error.stack ?? '') };
  if (summary === null && typeof code === 'string' && LOGGABLE_CODE.test(code)) {
    serialized.code = code;
  }
  if (typeof statusCode === 'number') serialized.statusCode = statusCode;
  if (cause instanceof Error && depth < MAX_CAUSES) {
    serialized.cause = serializeError(cause, depth + 1);
  } else if (cause !== undefined && cause !== null) {
    serialized.cause = '[not an error]';
  }
  return serialized;
}

/**
 * An error's message as it may be shown or logged: scrubbed, and only "database error" for a
 * database error, whose message quotes the row it was writing. Also what the CLI prints.
 */
export function loggableMessage(error: Error): string {
  return databaseErrorSummary(error) === null ? scrubText(error.message) : 'database error';
}

/**
 * A request target as logged: scrubbed like any other text, which takes out the credentials in
 * its path and query (url-redaction.ts: a signed download's token, every parameter's value).
 */
export function loggableUrl(url: string): string {
  return scrubText(url);
}

/**
 * One access line per request, written when it completes (method, route, status, time),
 * instead of Fastify's two. Successful health probes are left out: load balancers send them
 * every few seconds to every instance, and a failing probe is still logged.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!error && reply.statusCode < 400 && routedPathOf(request).health) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger, made on its first use. Fastify gives every request a child of the service
 * logger that carries the request id, and pino serialises that binding when the child is made:
 * a cost every request paid, although most write nothing (probes, reads that succeed).
 */
class DeferredChildLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | null = null;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  #write(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]) {
    const logger = this.#logger();
    Reflect.apply(logger[method] as LogMethod, logger, args);
  }

  get level(): string {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

export function deferredChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new DeferredChildLogger(parent, bindings, options);
}

/** Lines wait at most this long in the buffer before they are written. */
const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * Standard output is written in blocks of 4 KiB, and at least once a second, instead of one
 * system call per line: logging each request must not cost as much as serving it. pino flushes
 * what is pending when the process exits; a crash can lose at most the last second.
 */
export function stdoutDestination(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
}

export function createLogger(level: string, destination: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'pension-admin' },
      // Milliseconds since the epoch: formatting a date string per line costs more than the line.
      timestamp: pino.stdTimeFunctions.epochTime,
      messageKey: 'message',
      hooks: {
        // Messages are free text written by people: scrub them like any other value.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
          // An error logged without a message: pino would write the error's own message unscrubbed
          // (for a database error, the query and its parameters).
          const [first] = args as unknown[];
          const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
          if (args.length === 1 && error instanceof Error) scrubbed.push(loggableMessage(error));
          method.apply(this, scrubbed as typeof args);
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
        // formatters.log has already made every error plain data through serializeError.
        err: (value: unknown) => (value instanceof Error ? serializeError(value) : value),
      },
    },
    destination,
  );
}
