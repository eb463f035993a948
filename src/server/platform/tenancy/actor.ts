import type { Role } from './roles.js';
import type { SessionCheck } from './session-token.js';

/**
 * Where a request came from, as the audit log keeps it (docs/api.md, "The audit log"): the
 * `x-forwarded-for` and `user-agent` headers as sent, and the client address the server trusted
 * (Fastify's `request.ip`: the socket address, or what a TRUST_PROXY peer forwarded). The address
 * is optional in the type only so that actors written out in code (the start-up's system actor)
 * still compile; every actor built from a request carries it, and a record of an actor without
 * one says `unknown`.
 */
export interface RequestOrigin {
  ipAddress: string;
  userAgent: string;
  clientAddress?: string;
}

/**
 * Where the session's second factor stands (docs/decisions/0110-second-factor.md): `none` when the
 * account had none at sign-in, `recent` when one was confirmed within the last 5 minutes,
 * `earlier` when longer ago. The actions the policy table marks `stepUp` refuse `earlier`.
 */
export type SecondFactorState = 'none' | 'recent' | 'earlier';

interface ActorBase extends RequestOrigin {
  userId: string;
  email: string;
  /** From the verified session; absent for actors written out in code, which have no sign-in. */
  readonly secondFactor?: SecondFactorState;
  /**
   * The request's session check, when the actor comes from a request whose session is still to
   * be held against the user's row: withActor runs it in the transaction's first batch (docs/
   * docs/decisions/0060-request-path-one-round-trip.md). Absent for actors written out in code.
   */
  readonly session?: SessionCheck;
}

/** A user who works inside one broker firm: everything they touch belongs to that tenant. */
export interface TenantActor extends ActorBase {
  role: Exclude<Role, 'SuperAdmin'>;
  tenantId: string;
  employerId: string | null;
  /** A Member's own member record, read from their user row; null for every other role. */
  memberId: string | null;
}

/**
 * Platform operations (docs/api.md, "Who may do what"): no tenant of its own, crosses tenants only
 * on the audited platform path.
 */
export interface PlatformActor extends ActorBase {
  role: 'SuperAdmin';
  tenantId: null;
  employerId: null;
}

/**
 * Built per request from the verified session only, and the first argument of every service call
 * (docs/decisions/0022-tenancy-actor-and-row-level-security.md).
 */
export type ActorContext = TenantActor | PlatformActor;

export function isPlatformActor(actor: ActorContext): actor is PlatformActor {
  return actor.role === 'SuperAdmin';
}

/**
 * A request from no one signed in that still changes state: a password-reset request names an
 * account, and its token and e-mail belong in that account's tenant. It is recorded in the audit
 * log as anonymous and is never given to a service that authorises by role.
 */
export interface AnonymousActor {
  userId: 'anonymous';
  email: null;
  role: 'Anonymous';
  /** The tenant of the account the request names; null for a platform account. */
  tenantId: string | null;
  employerId: null;
  ipAddress: string;
  userAgent: string;
  clientAddress?: string;
}

/** Whoever a database transaction and its audit records act for. */
export type RecordedActor = ActorContext | AnonymousActor;

export function anonymousActor(tenantId: string | null, request: RequestOrigin): AnonymousActor {
  return {
    userId: 'anonymous',
    email: null,
    role: 'Anonymous',
    tenantId,
    employerId: null,
    ipAddress: request.ipAddress,
    userAgent: request.userAgent,
    ...(request.clientAddress === undefined ? {} : { clientAddress: request.clientAddress }),
  };
}

/** Who a user is, as a verified session or their own row says. */
export interface Identity {
  userId: string;
  email: string;
  role: Role;
  brokerId: string | null;
  employerId: string | null;
  memberId: string | null;
  /** The check still owed on the session this identity came from (ActorBase.session). */
  check?: SessionCheck;
  /** Where the session's second factor stands (ActorBase.secondFactor). */
  secondFactor?: SecondFactorState;
}

/** The actor for a user whose identity has been verified, acting from `origin`. */
export function actorFor(identity: Identity, origin: RequestOrigin): ActorContext {
  if (identity.role === 'SuperAdmin') {
    return {
      userId: identity.userId,
      email: identity.email,
      role: 'SuperAdmin',
      tenantId: null,
      employerId: null,
      ...origin,
      ...(identity.check ? { session: identity.check } : {}),
      ...(identity.secondFactor ? { secondFactor: identity.secondFactor } : {}),
    };
  }
  if (identity.brokerId === null) throw new Error('a tenant-scoped identity without a tenant');
  return {
    userId: identity.userId,
    email: identity.email,
    role: identity.role,
    tenantId: identity.brokerId,
    employerId: identity.employerId,
    memberId: identity.memberId,
    ...origin,
    ...(identity.check ? { session: identity.check } : {}),
    ...(identity.secondFactor ? { secondFactor: identity.secondFactor } : {}),
  };
}
