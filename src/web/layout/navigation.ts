import type { Role } from '../api/types';
import type { Session } from '../auth/session';

export interface NavItem {
  label: string;
  to: string;
}

/** What each role works on (issue 6): the navigation shows exactly that. */
export function navigationFor({ user, account }: Session): NavItem[] {
  const byRole: Record<Role, NavItem[]> = {
    SuperAdmin: [
      { label: 'Brokers', to: '/brokers' },
      { label: 'Audit log', to: '/audit' },
    ],
    BrokerAdmin: [
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Employers', to: '/employers' },
      { label: 'Schemes', to: '/schemes' },
      { label: 'Users', to: '/users' },
      { label: 'Audit log', to: '/audit' },
    ],
    BrokerUser: [
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Employers', to: '/employers' },
      { label: 'Schemes', to: '/schemes' },
    ],
    EmployerAdmin: [
      { label: 'Home', to: '/home' },
      { label: 'My employer', to: `/employers/${user.employerId}` },
      { label: 'Schemes', to: '/schemes' },
    ],
    EmployerUser: [
      { label: 'Home', to: '/home' },
      { label: 'My employer', to: `/employers/${user.employerId}` },
      { label: 'Schemes', to: '/schemes' },
    ],
    Member: account.memberId ? [{ label: 'My pension', to: `/members/${account.memberId}` }] : [],
  };
  // The API reference is for staff who script against the service, not for a member
  // (issue 21, item 3); everyone has their own account to look after.
  const reference: NavItem[] =
    user.role === 'Member' ? [] : [{ label: 'API reference', to: '/api-reference' }];
  return [...byRole[user.role], ...reference, { label: 'My account', to: '/account' }];
}

/** Where a role lands after signing in: its first page (a Member with no record, their account). */
export function homeOf(session: Session): string {
  return navigationFor(session)[0]?.to ?? '/account';
}
