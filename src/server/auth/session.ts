import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'session';

export interface SessionCredential {
  token: string;
  /** Cookie sessions are what browsers send by themselves, so only they need the same-origin check. */
  source: 'cookie' | 'bearer';
}

/** The session token from `Authorization: Bearer` (API clients) or the session cookie (browsers). */
export function readSessionCredential(request: FastifyRequest): SessionCredential | null {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header);
    return match?.[1] ? { token: match[1], source: 'bearer' } : null;
  }
  const cookies = request.headers.cookie;
  const cookie = cookies ? request.server.parseCookie(cookies)[SESSION_COOKIE] : undefined;
  return cookie ? { token: cookie, source: 'cookie' } : null;
}
