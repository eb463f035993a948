import type { FastifyRequest } from 'fastify';

/**
 * Wherever cookies are Secure (staging, production) the session cookie carries the
 * `__Host-` prefix, which browsers accept only from a secure origin, with `Path=/` and no
 * `Domain`: no sibling subdomain or plain-HTTP page can set or shadow it. Development and test
 * serve plain HTTP on loopback, where browsers refuse a `__Host-` cookie, so they keep the plain
 * name (docs/decisions/0036-session-epochs.md).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-session' : 'session';
}

export interface SessionCredential {
  token: string;
  /** Cookie sessions are what browsers send by themselves, so only they need the same-origin check. */
  source: 'cookie' | 'bearer';
}

/**
 * The session token from `Authorization: Bearer` (API clients) or the session cookie (browsers),
 * read under the one name this deployment sets (sessionCookieName).
 */
export function readSessionCredential(
  request: FastifyRequest,
  cookieName: string,
): SessionCredential | null {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header);
    return match?.[1] ? { token: match[1], source: 'bearer' } : null;
  }
  const cookies = request.headers.cookie;
  const cookie = cookies ? request.server.parseCookie(cookies)[cookieName] : undefined;
  return cookie ? { token: cookie, source: 'cookie' } : null;
}
