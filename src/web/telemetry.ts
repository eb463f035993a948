import type { Event } from '@sentry/react';
import { scrubTelemetry } from '../contracts/telemetry-text';

/**
 * Browser error telemetry (docs/decisions/0033-browser-error-telemetry.md). Events go to this
 * service's /monitoring, which checks and forwards them to the error-tracking service, so that
 * ad-blockers do not drop them. The page carries the DSN only when the server has one (SENTRY_DSN);
 * without it nothing below loads, and the SDK stays out of the initial bundle either way.
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

/**
 * The SDK's own bookkeeping on the event: read after beforeSend, never sent, and not plain data.
 * It is passed through untouched, beside the scrubbed copy of everything else.
 */
const SDK_INTERNAL_KEY = 'sdkProcessingMetadata';

/**
 * beforeSend: the event scrubbed by the service's one telemetry scrubber
 * (contracts/telemetry-text.ts): without request cookies and headers, the user's e-mail address
 * and IP address, and with PPS numbers, e-mail addresses and URL credentials replaced in every
 * string (message, exception values, breadcrumbs, URLs, extra data). The server scrubs the same
 * again: this copy is what leaves the browser, that one is what leaves the service.
 */
export function scrubEvent<T extends Event>(event: T): T {
  const { [SDK_INTERNAL_KEY]: bookkeeping, ...rest } = event;
  const scrubbed = scrubTelemetry(rest) as T;
  if (bookkeeping !== undefined) scrubbed[SDK_INTERNAL_KEY] = bookkeeping;
  return scrubbed;
}
