import { type InvitationPlace, invitableRoles, manageableRoles } from '../../contracts/invitations';
import { permits, type RowScope, type Subject, scopeFor } from '../../contracts/permits';
import type { Action, Scope } from '../../contracts/policy';
import type { Role } from '../../contracts/roles';
import { acceptsChanges } from '../../contracts/scheme-wind-up';
import { SECOND_FACTOR_RESETTABLE } from '../../contracts/second-factor';
import type { Session } from './session';

/**
 * What the signed-in person may do, read from the policy table the server enforces
 * (contracts/policy.ts), never restated here. Hiding a control is only courtesy: the API refuses
 * anything the table does not allow anyway.
 */

function subjectOf({ user, account }: Session): Subject {
  return {
    role: user.role,
    tenantId: user.brokerId,
    employerId: user.employerId,
    memberId: account.memberId,
  };
}

/** Whether the person may carry out the action, and, when given, on that record. */
export function can(session: Session, action: Action, row?: RowScope): boolean {
  return permits(subjectOf(session), action, row);
}

/**
 * Whether the person may make this change under the scheme: their role allows it and the scheme
 * still accepts changes, as the service decides (acceptsChanges;
 * docs/decisions/0146-schemes-wound-up-not-deleted.md).
 */
export function canChange(
  session: Session,
  action: Action,
  scheme: RowScope & { status?: string | null },
): boolean {
  return acceptsChanges(scheme) && can(session, action, scheme);
}

/** How far the person's permission for the action reaches, or null when they have none. */
export function scopeIn(session: Session, action: Action): Scope | null {
  return scopeFor(subjectOf(session), action);
}

/**
 * What a page or link needs: the action its content carries out (or any one of several, for a
 * page that serves more than one kind of work) and, for a page that is one side's view of it (a
 * firm's dashboard, an employer's home page), the reaches it is for.
 */
export interface Access {
  action: Action | readonly Action[];
  scopes?: readonly Scope[];
}

export function allows(session: Session, { action, scopes }: Access): boolean {
  const actions: readonly Action[] = typeof action === 'string' ? [action] : action;
  return actions.some((one) => {
    const scope = scopeIn(session, one);
    return scope !== null && (scopes === undefined || scopes.includes(scope));
  });
}

/** Where an employer sits, for the checks that concern it. */
export function employerRow(employer: { id: string; brokerId: string }): RowScope {
  return { brokerId: employer.brokerId, employerId: employer.id };
}

/** Where a member's record sits: a member reaches their own only. */
export function memberRow(member: { id: string; brokerId: string; employerId: string }): RowScope {
  return { brokerId: member.brokerId, employerId: member.employerId, memberId: member.id };
}

/**
 * Whether the person may reset the second factors of this account: the policy table's
 * `user.second_factor.reset` on its record, and whose factors their role may reset at all
 * (SECOND_FACTOR_RESETTABLE, which the service applies too). Never their own.
 */
export function mayResetSecondFactorOf(
  session: Session,
  account: { id: string; role: Role; brokerId: string | null; employerId: string | null },
): boolean {
  return (
    account.id !== session.user.id &&
    SECOND_FACTOR_RESETTABLE[session.user.role].includes(account.role) &&
    account.brokerId !== null &&
    can(session, 'user.second_factor.reset', {
      brokerId: account.brokerId,
      employerId: account.employerId,
    })
  );
}

/**
 * The roles the signed-in person may give an account they invite at `place`, from the one table
 * the server checks too (contracts/invitations.ts, docs/decisions/0143-who-invites-whom.md).
 */
export function invitableBy(session: Session, place: InvitationPlace): readonly Role[] {
  return invitableRoles(session.user.role, place);
}

/**
 * Whether the person may carry out `action` (a new invitation, or deactivating and reactivating)
 * on this account: the policy table's reach over the account's record, and the roles theirs may
 * look after (manageableRoles, which the service applies too;
 * docs/decisions/0143-who-invites-whom.md). An account of no firm is the platform's own.
 */
export function mayManage(
  session: Session,
  action: 'user.update' | 'user.invitation.resend',
  account: { role: Role; brokerId: string | null; employerId: string | null },
): boolean {
  if (!manageableRoles(session.user.role).includes(account.role)) return false;
  return account.brokerId === null
    ? scopeIn(session, action) === 'platform'
    : can(session, action, { brokerId: account.brokerId, employerId: account.employerId });
}
