import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Classifies a request's target for everything that decides by path: the authentication gate
 * (docs/api.md, "Errors": the 401), the rate limits ("Rate limits"), the HTTPS redirect ("HTTPS and
 * headers"), the access log, the 404 answer, the answer to an undecodable URL and the caching rule.
 * They must classify exactly the path the router routes (the security review found that an
 * absolute-form target, `GET http://host/api/x`, was routed to its handler while the gate, which
 * only read targets beginning with `/`, let it through unauthenticated and uncounted). So a request
 * is classified once, the same way for all of them, and the answer is kept on the request:
 *
 * - a target that is a plain path (lower-case segments of safe characters, in origin form) is
 *   routed as it stands, so the path itself is classified: the fast path, no routing state read;
 * - otherwise, when the router matched a route, by that route's registered pattern: exactly
 *   what was routed, whatever the form of the target (absolute with any host, any case of
 *   scheme, percent-encoding the router decoded);
 * - otherwise (no route: the 404 answer, the app page, an undecodable URL) by the target's path,
 *   absolute form reduced to its path as the router reduces it, read two ways: as sent, and as a
 *   lenient decoder could turn it into (percent-decoded, `;` parameters and trailing dots
 *   dropped, duplicate slashes folded, dot segments resolved, lower-cased). It is public only
 *   when both readings agree it is. A target with no path (`*`, `host:port`, another scheme)
 *   cannot be classified and is treated as a protected API path: the fail-closed answer.
 */
export interface RoutedPath {
  /** What the rate limits match: the route's pattern, else the target's path read leniently. */
  readonly path: string;
  /** Under /api: JSON answers, not cached, counted by the general limit. */
  readonly api: boolean;
  /** The gate must see a valid session before anything else runs. */
  readonly requiresSession: boolean;
  /** A health probe: reachable over plain HTTP, left out of the access log when it succeeds. */
  readonly health: boolean;
  /**
   * Under a prefix whose routes machines call with a shared secret (docs/api.md, "Errors"):
   * which secret the bearer gate demands before anything else, routed or not; null elsewhere.
   */
  readonly bearer: BearerPrefix | null;
}

/** The machine-called prefixes and the secret each demands (bearer-gate.ts). */
export const BEARER_PREFIXES = { '/api/cron/': 'cron', '/api/rag/': 'rag' } as const;
export type BearerPrefix = (typeof BEARER_PREFIXES)[keyof typeof BEARER_PREFIXES];

function bearerOf(path: string): BearerPrefix | null {
  for (const [prefix, bearer] of Object.entries(BEARER_PREFIXES)) {
    if (path.startsWith(prefix)) return bearer;
  }
  return null;
}

/**
 * Open without a session. `/api/cron/` is no exception to authentication: its one route checks
 * the CRON_SECRET bearer itself, first (modules/cron/cron.routes.ts); a target under it that no
 * route serves is still classified by both readings below, and fails closed. `/api/rag/` likewise:
 * its one route checks the RAG_INGEST_SECRET bearer first (modules/rag/rag.routes.ts).
 */
const PUBLIC_API_PREFIXES = ['/api/auth/', '/api/health/', '/api/cron/', '/api/rag/'] as const;
const HEALTH_PREFIX = '/api/health/';
const SLASH = 47;

/** A target that names no path the router could route: treated as a protected API path. */
const UNCLASSIFIABLE: RoutedPath = Object.freeze({
  path: '/api',
  api: true,
  requiresSession: true,
  health: false,
  bearer: null,
});

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

function decodeFully(path: string): string | null {
  let current = path;
  for (let round = 0; round < 3; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return null; // still encoded after three rounds: nothing legitimate needs that
}

const WHITESPACE = /\s/;

/**
 * A segment without the trailing dots and spaces some servers ignore, walked back from its end:
 * the pattern `[.\s]+$` takes quadratic time on a long run of dots followed by anything else.
 */
function withoutTrailingDotsAndSpaces(segment: string): string {
  let end = segment.length;
  while (end > 0) {
    const character = segment[end - 1] as string;
    if (character !== '.' && !WHITESPACE.test(character)) break;
    end -= 1;
  }
  return segment.slice(0, end);
}

/**
 * Lower-case segments of safe characters: already in canonical form, nothing to undo. Linear:
 * a segment can end only before a slash or at the end, so a failed match never re-splits one.
 */
export const PLAIN_PATH = /^(?:\/[a-z0-9_-][a-z0-9_.-]*[a-z0-9_-]|\/[a-z0-9_-])*$/;

function isPlain(path: string): boolean {
  return path === '/' || PLAIN_PATH.test(path);
}

/**
 * The most lenient reading of an origin-form target's path, or null when it cannot be decoded at
 * all. A trailing slash is dropped, so `/api/health/live/` is not "untouched" and gets no public
 * pass.
 */
export function canonicalPath(url: string): string | null {
  const path = pathOf(url);
  if (PLAIN_PATH.test(path)) return path === '' ? '/' : path;
  const decoded = decodeFully(path);
  if (decoded === null || decoded.includes('\0')) return null;
  const segments: string[] = [];
  for (const rawSegment of decoded.replace(/\\/g, '/').split('/')) {
    const withoutParameters = rawSegment.split(';')[0] ?? '';
    if (withoutParameters === '..') {
      segments.pop();
      continue;
    }
    const segment = withoutTrailingDotsAndSpaces(withoutParameters).toLowerCase();
    if (segment !== '') segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

function isApi(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function isPublic(path: string): boolean {
  return PUBLIC_API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Linear: one run of a single character, each matched once. */
export const REPEATED_SLASHES = /\/{2,}/g;

function collapseSlashes(path: string): string {
  return path.replace(REPEATED_SLASHES, '/').toLowerCase();
}

/** A path that needs no reading but its own: a plain path, or a route's pattern. */
function classifyAsIs(path: string): RoutedPath {
  const api = isApi(path);
  return {
    path,
    api,
    requiresSession: api && !isPublic(path),
    health: path.startsWith(HEALTH_PREFIX),
    bearer: bearerOf(path),
  };
}

/**
 * The origin form (path and query) of a request target, or null when it has none. Absolute form
 * is reduced exactly as Fastify's router reduces it before routing (find-my-way's
 * getPathFromAbsoluteUrl): an `http` or `https` scheme in any case, a non-empty authority that
 * parses as a URL, no fragment; the path after the authority, `/` when there is none. Every other
 * form (`*`, `host:port`, another scheme) is routed nowhere.
 */
export function originFormOf(url: string): string | null {
  if (url.charCodeAt(0) === SLASH) return url;
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return null;
  const scheme = url.slice(0, schemeEnd).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return null;
  const authorityStart = schemeEnd + 3;
  const pathStart = url.indexOf('/', authorityStart);
  const queryStart = url.indexOf('?', authorityStart);
  let authorityEnd = pathStart === -1 ? url.length : pathStart;
  if (queryStart !== -1 && queryStart < authorityEnd) authorityEnd = queryStart;
  if (url.indexOf('#', authorityStart) !== -1 || authorityEnd === authorityStart) return null;
  const parsed = URL.parse(url);
  if (parsed === null || parsed.protocol !== `${scheme}:` || parsed.host.length === 0) return null;
  if (authorityEnd === url.length) return '/';
  if (authorityEnd === queryStart) return `/${url.slice(queryStart)}`;
  return url.slice(pathStart);
}

/** A target no route matched, in any form: its path read both ways, or fail closed. */
export function classifyTarget(url: string): RoutedPath {
  const target = originFormOf(url);
  if (target === null) return UNCLASSIFIABLE;
  const path = pathOf(target);
  if (isPlain(path)) return classifyAsIs(path);
  const loose = collapseSlashes(path);
  const looselyApi = isApi(loose);
  const canonical = canonicalPath(target);
  // Undecodable: the router refuses it too; only its raw form can say whether it aimed at the
  // API. It is still answered as JSON and counted like the API.
  if (canonical === null) {
    return { path, api: true, requiresSession: looselyApi, health: false, bearer: bearerOf(loose) };
  }
  const api = looselyApi || isApi(canonical);
  const untouched = path === canonical;
  return {
    path: canonical,
    api,
    requiresSession: api && !(untouched && isPublic(canonical)),
    health: untouched && canonical.startsWith(HEALTH_PREFIX),
    // Either reading under a machine prefix: the secret is demanded, as the session is above.
    bearer: bearerOf(canonical) ?? bearerOf(loose),
  };
}

/** Route patterns are few and fixed at start-up: each is classified once. */
const patternClasses = new Map<string, RoutedPath>();

function classifyPattern(pattern: string): RoutedPath {
  let known = patternClasses.get(pattern);
  if (known === undefined) {
    // Our patterns are plain paths with `:param` segments; any other shape fails closed.
    known =
      pattern.charCodeAt(0) === SLASH
        ? Object.freeze(classifyAsIs(collapseSlashes(pattern)))
        : UNCLASSIFIABLE;
    patternClasses.set(pattern, known);
  }
  return known;
}

/** Whether a route's pattern lies behind the session gate, as its requests are classified. */
export function patternRequiresSession(pattern: string): boolean {
  return classifyPattern(pattern).requiresSession;
}

function classify(request: FastifyRequest): RoutedPath {
  const url = request.url;
  if (url.charCodeAt(0) === SLASH) {
    const path = pathOf(url);
    if (isPlain(path)) return classifyAsIs(path);
  }
  if (!request.is404) {
    // routeOptions builds an object on every read: only targets off the fast path get here.
    const pattern = request.routeOptions.url;
    if (pattern !== undefined) return classifyPattern(pattern);
  }
  return classifyTarget(url);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by routedPathOf on first use. */
    routedPath: RoutedPath | null;
  }
}

/** The request's classification, made once and shared by every hook that decides by path. */
export function routedPathOf(request: FastifyRequest): RoutedPath {
  let routed = request.routedPath;
  if (!routed) {
    routed = classify(request);
    request.routedPath = routed;
  }
  return routed;
}

/** Gives every request the slot its classification is kept in (one shape for all requests). */
const routedPaths: FastifyPluginAsync = async (app) => {
  app.decorateRequest('routedPath', null);
};

export default fp(routedPaths, { name: 'routed-paths' });
