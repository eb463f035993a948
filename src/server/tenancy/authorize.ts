import { HttpError } from '../http/http-error.js';
import { type ActorContext, isPlatformActor, type TenantActor } from './actor.js';
import { isEmployerRole, type Role, roleRank } from './roles.js';

/** 403 `{"error":"Forbidden"}`; logged as a security event by the error handler. */
export class ForbiddenError extends HttpError {
  constructor() {
    super(403, 'Forbidden');
  }
}

/**
 * 404 `{"error":"Not found"}`: also the answer for a record of another tenant or outside the
 * actor's employer, so nobody learns whether it exists.
 */
export class NotFoundError extends HttpError {
  constructor() {
    super(404, 'Not found');
  }
}

/** service-spec §5.4.1: passes when the actor's role ranks at least as high as `minimum`. */
export function requireRole(actor: ActorContext, minimum: Role): void {
  if (roleRank(actor.role) > roleRank(minimum)) throw new ForbiddenError();
}

/** Only SuperAdmin: platform operations. */
export function requirePlatform(actor: ActorContext): void {
  if (!isPlatformActor(actor)) throw new ForbiddenError();
}

/**
 * The scope a tenant-scoped actor may touch, checked against the tenant (and employer) stored on
 * a row, never one a client supplied. SuperAdmin passes (service-spec §5.4.2); everyone else must
 * share the row's tenant and, in an employer role, its employer.
 */
export interface RowScope {
  brokerId: string;
  /** The employer the row belongs to; null for rows above any employer (the broker, its users). */
  employerId: string | null;
  /**
   * The member the row belongs to (the member record itself, its contributions and fund choices).
   * A Member reaches only rows of their own member record; rows without one are beyond them.
   */
  memberId?: string | null;
}

/** True when the actor may see the row at all. */
export function canReach(actor: ActorContext, row: RowScope): boolean {
  if (isPlatformActor(actor)) return true;
  if (actor.tenantId !== row.brokerId) return false;
  if (!isEmployerRole(actor.role)) return true;
  if (row.employerId === null || row.employerId !== actor.employerId) return false;
  if (actor.role !== 'Member') return true;
  return row.memberId !== undefined && row.memberId !== null && row.memberId === actor.memberId;
}

/**
 * service-spec §5.4.2 for reading or changing a row the request named by id: a row outside the
 * actor's reach answers exactly as a row that does not exist.
 */
export function requireReach<T extends RowScope>(actor: ActorContext, row: T | undefined): T {
  if (!row || !canReach(actor, row)) throw new NotFoundError();
  return row;
}

/**
 * service-spec §5.4.2 for a write that names a parent (the employer of a new scheme): a parent
 * outside the actor's reach, or none at all, is a tenant mismatch, 403.
 */
export function requireParent<T extends RowScope>(actor: ActorContext, row: T | undefined): T {
  if (!row || !canReach(actor, row)) throw new ForbiddenError();
  return row;
}

/**
 * Tenant data is written by the tenant's own people. SuperAdmin runs the platform (brokers and
 * their first accounts) and has no tenant to write into, so such writes are refused.
 */
export function requireTenantActor(actor: ActorContext): TenantActor {
  if (isPlatformActor(actor)) throw new ForbiddenError();
  return actor;
}
