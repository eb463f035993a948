import type { Event } from '@sentry/react';

/**
 * Browser error telemetry (service-spec §1, §4). Events go to this service's /monitoring, which
 * checks and forwards them to the error-tracking service, so that ad-blockers do not drop them.
 * The page carries the DSN only when the server has one (SENTRY_DSN); without it nothing below
 * loads, and the SDK stays out of the initial bundle either way.
 */
export const TUNNEL_PATH = '/monitoring';

/** The DSN the server put in the page, or null when telemetry is off. */
export function telemetryDsn(): string | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="telemetry-dsn"]');
  return meta?.content || null;
}

/** Destructured where it is imported, so that the bundler keeps only what init needs. */
async function loadSdk() {
  const { init } = await import('@sentry/react');
  return init;
}

export async function initTelemetry(): Promise<void> {
  const dsn = telemetryDsn();
  if (!dsn) return;
  let init: Awaited<ReturnType<typeof loadSdk>>;
  try {
    init = await loadSdk();
  } catch {
    // Telemetry is optional: when its chunk cannot be loaded the page works on without it.
    return;
  }
  init({
    dsn,
    tunnel: TUNNEL_PATH,
    // No IP address, cookies or request headers attached by the SDK itself.
    sendDefaultPii: false,
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => scrubEvent(event),
  });
}

const FILTERED = '[Filtered]';

/** Keys removed wherever they appear: request cookies and headers, the user's address and IP. */
const REMOVED_KEYS = new Set([
  'cookie',
  'cookies',
  'headers',
  'authorization',
  'email',
  'emailaddress',
  'ipaddress',
  'querystring',
]);

/**
 * The SDK's own bookkeeping on the event: read after beforeSend, never sent, and not plain data.
 * It is passed through untouched.
 */
const SDK_INTERNAL_KEYS = new Set(['sdkProcessingMetadata']);

/**
 * Free-text shapes replaced in every string. Quantifiers that can meet a long run of their
 * characters are bounded, so a long message cannot make scrubbing take quadratic time.
 */
const TEXT_PATTERNS: Array<[RegExp, string]> = [
  // Values of URL parameters, in the query or the fragment: reset links carry their token there.
  [/([?#&;][^=?#&;\s"'<>]{1,100}=)[^&#;\s"'<>]*/g, `$1${FILTERED}`],
  // PPS numbers, standing alone: hex ids, which may hold the same run, are left whole.
  [/(?<![A-Za-z0-9])[0-9]{7}[A-Wa-w][ABHTWXabhtwx]?(?![A-Za-z0-9])/g, FILTERED],
];

const EMAIL_LOCAL_CHARACTER = /[A-Za-z0-9._%+-]/;
const EMAIL_LOCAL_MAX = 64;
const EMAIL_DOMAIN = /[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}/y;

/** E-mail addresses, found from their `@` outwards (one pattern over the text would retry everywhere). */
function scrubEmailAddresses(text: string): string {
  let at = text.indexOf('@');
  if (at === -1) return text;
  let result = '';
  let copied = 0;
  while (at !== -1) {
    let start = at;
    while (
      start > copied &&
      at - start < EMAIL_LOCAL_MAX &&
      EMAIL_LOCAL_CHARACTER.test(text[start - 1] as string)
    ) {
      start -= 1;
    }
    EMAIL_DOMAIN.lastIndex = at + 1;
    const domain = start < at ? EMAIL_DOMAIN.exec(text) : null;
    if (domain) {
      result += `${text.slice(copied, start)}${FILTERED}`;
      copied = at + 1 + domain[0].length;
      at = text.indexOf('@', copied);
    } else {
      at = text.indexOf('@', at + 1);
    }
  }
  return result + text.slice(copied);
}

export function scrubText(text: string): string {
  let result = scrubEmailAddresses(text);
  for (const [pattern, replacement] of TEXT_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** Deeper than any event the SDK builds (it normalises to depth 3 by default). */
const MAX_DEPTH = 24;

const normaliseKey = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return FILTERED;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  // The SDK has normalised the event to plain data by now: anything else is not ours to send.
  if (!isPlainObject(value)) return FILTERED;
  // No prototype: a `__proto__` key in the input stays a plain key of the copy.
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) {
    if (depth === 0 && SDK_INTERNAL_KEYS.has(key)) {
      copy[key] = item;
      continue;
    }
    if (REMOVED_KEYS.has(normaliseKey(key))) continue;
    copy[scrubText(key)] = scrubValue(item, depth + 1);
  }
  return copy;
}

/**
 * beforeSend: a copy of the event without request cookies and headers, the user's e-mail address
 * and IP address, and with PPS numbers, e-mail addresses and URL parameter values replaced in
 * every string (message, exception values, breadcrumbs, URLs, extra data). The server scrubs the
 * same again: this copy is what leaves the browser, that one is what leaves the service.
 */
export function scrubEvent<T extends Event>(event: T): T {
  return scrubValue(event, 0) as T;
}
