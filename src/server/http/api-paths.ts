/**
 * Classifies request paths for the authentication gate (service-spec §5.2). The router and the
 * gate must never disagree about whether a path is public, so the gate reasons about two forms:
 * the path as sent, and the path a lenient decoder could turn it into (percent-decoded, `;`
 * parameters and trailing dots dropped, duplicate slashes folded, dot segments resolved,
 * lower-cased). A path is public only when both forms agree it is.
 */

const PUBLIC_API_PREFIXES = ['/api/auth/', '/api/health/'] as const;

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

/**
 * The most lenient reading of a path, or null when it cannot be decoded at all. A trailing slash
 * is dropped, so `/api/health/live/` is not "untouched" and gets no public pass.
 */
/** Lower-case segments of safe characters: already in canonical form, nothing to undo. */
const PLAIN_PATH = /^(?:\/[a-z0-9_-][a-z0-9_.-]*[a-z0-9_-]|\/[a-z0-9_-])*$/;

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
    const segment = withoutParameters.replace(/[.\s]+$/, '').toLowerCase();
    if (segment !== '') segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

function isApi(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function collapseSlashes(path: string): string {
  return path.replace(/\/{2,}/g, '/').toLowerCase();
}

/** True when the gate must see a valid session before anything else runs. */
export function requiresSession(url: string): boolean {
  const path = pathOf(url);
  if (PLAIN_PATH.test(path)) {
    return isApi(path) && !PUBLIC_API_PREFIXES.some((prefix) => path.startsWith(prefix));
  }
  const canonical = canonicalPath(url);
  // Undecodable: the router refuses it too; only its raw form can say whether it aimed at the API.
  if (canonical === null) return isApi(collapseSlashes(path));
  const apiLike = isApi(collapseSlashes(path)) || isApi(canonical);
  if (!apiLike) return false;
  const untouched = path === canonical;
  return !(untouched && PUBLIC_API_PREFIXES.some((prefix) => canonical.startsWith(prefix)));
}

/** A health probe path as sent, without any of the tricks canonicalPath undoes. */
export function isHealthPath(url: string): boolean {
  const path = pathOf(url);
  return path.startsWith('/api/health/') && canonicalPath(url) === path;
}

export function isApiPath(url: string): boolean {
  const path = pathOf(url);
  if (PLAIN_PATH.test(path)) return isApi(path);
  return isApi(collapseSlashes(path)) || isApi(canonicalPath(url) ?? '/api');
}
