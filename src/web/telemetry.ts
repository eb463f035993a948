import type { Event } from '@sentry/react';
import { FILTERED, scrubTelemetryText } from '../contracts/telemetry-text';

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
    // Nothing about the person or their request collected by the SDK itself: no IP address for
    // the ingest to infer, no user fields, cookies, headers (a Referer can carry a search), query
    // strings or bodies. The SDK's defaults collect all of these.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
    },
    // Errors only: no tracing is set up, so the page sends no spans (/monitoring would drop them
    // unread), and no transaction hook, which SDK 11 ignores with a console warning.
    beforeSend: (event) => scrubEvent(event),
  });
}

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

/** Deeper than any event the SDK builds (it normalises to depth 3 by default). */
const MAX_DEPTH = 24;

const normaliseKey = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubTelemetryText(value);
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
    copy[scrubTelemetryText(key)] = scrubValue(item, depth + 1);
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
