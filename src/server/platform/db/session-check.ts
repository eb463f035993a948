import { isRole } from '../tenancy/roles.js';
import type { SessionCheck } from '../tenancy/session-token.js';
import { causeChain } from './database-errors.js';

/** The SQLSTATE `app_session_check` raises for a session that no longer holds. */
export const SESSION_ENDED_SQLSTATE = 'PA401';

/** The session behind the request no longer holds: answered 401 like no session at all. */
export class SessionEndedError extends Error {
  override name = 'SessionEndedError';
  constructor() {
    super('the session ended');
  }
}

/** True when `error`, or anything in its cause chain, is the session check's refusal. */
export function isSessionEnded(error: unknown): boolean {
  for (const current of causeChain(error)) {
    if (current instanceof SessionEndedError || current.code === SESSION_ENDED_SQLSTATE) {
      return true;
    }
  }
  return false;
}

/** Ids as they come from our own rows and verified tokens; anything else is refused, not escaped. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,64}$/;

function idLiteral(value: string | null): string {
  if (value === null) return 'null';
  if (!PLAIN_ID.test(value)) throw new SessionEndedError();
  return `'${value}'`;
}

function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new SessionEndedError();
  return String(value);
}

/**
 * The check as a FROM item of the statement that sets the role (which a SECURITY DEFINER
 * function may not do itself), written with literals because that prelude statement carries no
 * parameters (database.ts).
 * Every value is an id, an integer, a role name or a boolean, checked here rather than escaped;
 * a token whose claims do not fit is treated as an ended session.
 */
export function sessionCheckSql({ claims, acceptDevelopmentAccounts }: SessionCheck): string {
  if (!isRole(claims.role)) throw new SessionEndedError();
  return `app_session_check(${[
    idLiteral(claims.userId),
    integerLiteral(claims.sessionEpoch),
    integerLiteral(claims.passwordChangedAt),
    `'${claims.role}'`,
    idLiteral(claims.brokerId),
    idLiteral(claims.employerId),
    acceptDevelopmentAccounts ? 'true' : 'false',
  ].join(', ')})`;
}
