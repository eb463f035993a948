import type { FastifyRequest } from 'fastify';
import type { SessionTokens, VerifiedSession } from './session-token.js';

export const SESSION_COOKIE = 'session';

/** The session token from the cookie, or from `Authorization: Bearer` for API clients. */
export function readSessionToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header);
    return match?.[1] ?? null;
  }
  return request.cookies[SESSION_COOKIE] ?? null;
}

export type Authenticator = (request: FastifyRequest) => Promise<VerifiedSession | null>;

export function createSessionAuthenticator(tokens: SessionTokens): Authenticator {
  return async (request) => {
    const token = readSessionToken(request);
    return token ? tokens.verify(token) : null;
  };
}
