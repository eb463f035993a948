import type { SessionUser } from '../api/types';

/**
 * What the scheme and member pages offer to whom (decisions.md §3, as the API enforces it). The
 * API refuses anything else anyway; these only keep controls a role cannot use off the page.
 */

/** Rename a scheme, change its members, record contributions, import CSV files. */
export function canManageScheme(user: SessionUser): boolean {
  return user.role === 'BrokerAdmin' || user.role === 'BrokerUser' || user.role === 'EmployerAdmin';
}

/**
 * The broker's own decisions about a scheme: its type (never once it has members, which the API
 * checks) and the funds it offers, the trustees' investment decision. Employer roles read them.
 */
export function canSetSchemeTerms(user: SessionUser): boolean {
  return user.role === 'BrokerAdmin' || user.role === 'BrokerUser';
}

/** Soft-delete schemes and members. */
export function canDelete(user: SessionUser): boolean {
  return user.role === 'BrokerAdmin';
}

/** The audited PPS reveal: broker staff of the member's tenant. */
export function canRevealPps(user: SessionUser): boolean {
  return user.role === 'BrokerAdmin' || user.role === 'BrokerUser';
}

/** The GDPR export: the tenant's BrokerAdmin, or the member themself. */
export function canExportMember(
  user: SessionUser,
  memberId: string,
  ownMemberId: string | null,
): boolean {
  return user.role === 'BrokerAdmin' || (user.role === 'Member' && ownMemberId === memberId);
}

/** Change fund choices: the member themself, broker staff and the employer's EmployerAdmin. */
export function canChooseFunds(user: SessionUser): boolean {
  return user.role !== 'EmployerUser' && user.role !== 'SuperAdmin';
}
