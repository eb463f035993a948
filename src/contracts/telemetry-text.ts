/**
 * How error telemetry is scrubbed, its free text and its shape, shared by the browser (before an
 * event leaves it) and the server's `/monitoring` tunnel (again, for a browser that skipped its
 * own scrubbing), so the two can never disagree. Every quantifier that can meet a long run of
 * its characters is bounded: the tunnel runs this over 200 KiB that anyone may send, and an
 * unbounded one costs time quadratic in the run.
 */

import { redactUrlCredentials } from './url-redaction.js';

export const FILTERED = '[Filtered]';

const TEXT_PATTERNS: Array<[RegExp, string]> = [
  // PPS numbers (docs/decisions/0028-pps-numbers.md), standing alone: hex ids, which may hold the
  // same run, are left whole.
  [/(?<![A-Za-z0-9])[0-9]{7}[A-Wa-w][ABHTWXabhtwx]?(?![A-Za-z0-9])/g, FILTERED],
];

// Letters and digits of any script: `seán@gmaíl.ie` is an address too (RFC 6531).
const EMAIL_LOCAL_CHARACTER = /[\p{L}\p{N}._%+-]/u;
const EMAIL_LOCAL_MAX = 64;
const EMAIL_DOMAIN = /[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.[\p{L}\p{N}-]{2,63}/uy;

/**
 * Where the e-mail addresses of `text` stand, as [start, end) pairs, found from their `@`
 * outwards rather than by one regular expression over the whole text: a pattern free to start
 * anywhere retries the local part at every character. The one finder of addresses: telemetry
 * filters what it finds, and the AI provider's guard refuses a request holding one
 * (server/modules/ai/provider-guard.rules.ts).
 */
export function emailAddressesIn(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let copied = 0;
  let at = text.indexOf('@');
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
      copied = at + 1 + domain[0].length;
      found.push([start, copied]);
      at = text.indexOf('@', copied);
    } else {
      at = text.indexOf('@', at + 1);
    }
  }
  return found;
}

function scrubEmailAddresses(text: string): string {
  let result = '';
  let copied = 0;
  for (const [start, end] of emailAddressesIn(text)) {
    result += `${text.slice(copied, start)}${FILTERED}`;
    copied = end;
  }
  return result + text.slice(copied);
}

/**
 * A telemetry string with e-mail addresses, URL credentials (parameter values, a signed
 * download's token: url-redaction.ts) and PPS numbers filtered.
 */
export function scrubTelemetryText(text: string): string {
  let result = redactUrlCredentials(scrubEmailAddresses(text), FILTERED);
  for (const [pattern, replacement] of TEXT_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/**
 * Keys removed wherever they appear, however written (`ip_address`, `IpAddress`): request cookies
 * and headers (a Referer can carry a search), query strings, the user's e-mail and IP address, and
 * an employer's contact e-mail and phone (docs/decisions/0132-employer-and-scheme-details.md).
 */
const REMOVED_KEYS = new Set([
  'cookie',
  'cookies',
  'headers',
  'authorization',
  'email',
  'emailaddress',
  'contactemail',
  'phone',
  'contactphone',
  'ipaddress',
  'querystring',
]);

/** Deeper than any event the SDK builds (it normalises to depth 3); below it, nothing is walked. */
const MAX_DEPTH = 24;

const normaliseKey = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A scrubbed copy of a telemetry event or any part of it, the one scrubber of both the browser
 * (before an event leaves it) and the `/monitoring` tunnel (before it leaves the service): the
 * keys above removed at any depth, every other key and every string through scrubTelemetryText,
 * anything deeper than MAX_DEPTH and any object that is not plain data (a class instance, a Map)
 * replaced by FILTERED. The value given is left as it was.
 */
export function scrubTelemetry(value: unknown): unknown {
  return scrubAt(value, 0);
}

function scrubAt(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubTelemetryText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return FILTERED;
  if (Array.isArray(value)) return value.map((item) => scrubAt(item, depth + 1));
  if (!isPlainObject(value)) return FILTERED;
  // No prototype: a `__proto__` key in the input stays a plain key of the copy.
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) {
    if (REMOVED_KEYS.has(normaliseKey(key))) continue;
    copy[scrubTelemetryText(key)] = scrubAt(item, depth + 1);
  }
  return copy;
}
