import { type RowScope, reaches, type Subject, scopeFor } from '../../../contracts/permits.js';
import {
  type Action,
  POLICY,
  type RecordAction,
  type Rule,
  type Scope,
} from '../../../contracts/policy.js';
import { ForbiddenError, NotFoundError, StepUpRequiredError } from '../errors.js';
import { type ActorContext, isPlatformActor, type TenantActor } from './actor.js';

export type { RowScope } from '../../../contracts/permits.js';

export { ForbiddenError, NotFoundError } from '../errors.js';

function subjectOf(actor: ActorContext): Subject {
  return {
    role: actor.role,
    tenantId: actor.tenantId,
    employerId: actor.employerId,
    memberId: isPlatformActor(actor) ? null : actor.memberId,
  };
}

type RolesOf<A extends Action> = keyof (typeof POLICY)[A]['roles'];

/**
 * The actor an action admits. SuperAdmin has no tenant to write into (docs/api.md, "Who may do
 * what"), so an action the table does not give SuperAdmin is carried out by one of a tenant's own
 * people.
 */
export type ActorFor<A extends Action> =
  'SuperAdmin' extends RolesOf<A> ? ActorContext : TenantActor;

/** The actor's scope for the action; 403 when the policy table does not allow it them. */
export function scopeOf(actor: ActorContext, action: Action): Scope {
  const scope = scopeFor(subjectOf(actor), action);
  if (scope === null) throw new ForbiddenError();
  return scope;
}

/**
 * The first statement of every service method (docs/decisions/0055-authorisation-policy-table.md): the
 * actor's role must be allowed the action by the policy table, or the answer is 403. Returns the
 * actor, typed as a tenant's own when the action is not one SuperAdmin may carry out.
 */
export function authorize<A extends Action>(actor: ActorContext, action: A): ActorFor<A> {
  scopeOf(actor, action);
  // The action needs a recent second factor where the account has one (the policy table's
  // `stepUp`, docs/decisions/0110-second-factor.md). An actor written out in code has no sign-in
  // and never carries out such an action.
  if ((POLICY[action] as Rule).stepUp && actor.secondFactor === 'earlier') {
    throw new StepUpRequiredError();
  }
  return actor as ActorFor<A>;
}

/**
 * The action's scope checked against a record the service loaded by the id the request named,
 * never against anything the client said about where it sits. A record beyond reach, or none,
 * answers as the table says of the action's target: 404 for the record itself, so nobody learns
 * it exists, 403 for a parent a new record would go under (docs/api.md, "Who may do what").
 */
export function authorizeRow<T extends RowScope>(
  actor: ActorContext,
  action: RecordAction,
  row: T | undefined,
): T {
  const subject = subjectOf(actor);
  const scope = scopeOf(actor, action);
  if (row && reaches(subject, scope, row)) return row;
  throw POLICY[action].target === 'parent' ? new ForbiddenError() : new NotFoundError();
}

/** Whether the actor may carry out the action, for what a view leaves out (staff notes). */
export function isAllowed(actor: ActorContext, action: Action): boolean {
  return scopeFor(subjectOf(actor), action) !== null;
}

/**
 * What a list for the action is kept to: the actor's tenant, employer and member record as far
 * as their scope for it narrows, null where it does not (SuperAdmin's platform scope narrows
 * nothing). Row-level security keeps every query to the tenant besides (docs/decisions/0022-tenancy-actor-and-row-level-security.md).
 */
export interface ListBounds {
  tenantId: string | null;
  employerId: string | null;
  memberId: string | null;
}

export function boundsOf(actor: ActorContext, action: Action): ListBounds {
  const subject = subjectOf(actor);
  const scope = scopeOf(actor, action);
  const narrows = (to: Scope[]) => to.includes(scope);
  return {
    tenantId: narrows(['tenant', 'employer', 'member']) ? subject.tenantId : null,
    employerId: narrows(['employer', 'member']) ? subject.employerId : null,
    memberId: narrows(['member']) ? subject.memberId : null,
  };
}
