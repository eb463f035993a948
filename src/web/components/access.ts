import type { Role } from '../api/types';
import type { Session } from '../auth/session';

/**
 * What the UI offers to whom, following decisions.md §3 as the API enforces it (including where
 * it is not monotonic in rank: a BrokerUser neither renames employers nor sees accounts, and
 * SuperAdmin, who has no tenant, writes no employers or schemes). Hiding a control is only
 * courtesy; the API refuses the request anyway.
 */
export const ROLES_AT_EMPLOYER_LEVEL_AND_UP: readonly Role[] = [
  'SuperAdmin',
  'BrokerAdmin',
  'BrokerUser',
  'EmployerAdmin',
  'EmployerUser',
];

export function isBrokerStaff(role: Role): boolean {
  return role === 'BrokerAdmin' || role === 'BrokerUser';
}

export function canCreateEmployers({ user }: Session): boolean {
  return user.role === 'BrokerAdmin';
}

export function canRenameEmployer({ user }: Session, employerId: string): boolean {
  return (
    user.role === 'BrokerAdmin' || (user.role === 'EmployerAdmin' && user.employerId === employerId)
  );
}

export function canDeleteEmployer({ user }: Session): boolean {
  return user.role === 'BrokerAdmin';
}

export function canCreateSchemes({ user }: Session): boolean {
  return isBrokerStaff(user.role);
}

export function canSeeEmployerAccounts({ user }: Session, employerId: string): boolean {
  return (
    user.role === 'SuperAdmin' ||
    user.role === 'BrokerAdmin' ||
    (user.role === 'EmployerAdmin' && user.employerId === employerId)
  );
}

export function canCreateEmployerAccounts({ user }: Session): boolean {
  return user.role === 'BrokerAdmin';
}

/** Deactivating and reactivating accounts (`PATCH /api/users/:id`). */
export function canChangeAccountStatus({ user }: Session): boolean {
  return user.role === 'SuperAdmin' || user.role === 'BrokerAdmin';
}

export function canReadAudit({ user }: Session): boolean {
  return user.role === 'SuperAdmin' || user.role === 'BrokerAdmin';
}
