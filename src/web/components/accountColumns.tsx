import { ROLE_NAMES } from '../../contracts/roles';
import type { User } from '../api/types';
import { AccountStatusAction, AccountStatusBadge } from './AccountStatus';
import type { Column } from './CursorTable';
import { DateTime } from './DateTime';

/**
 * The columns of every list of accounts (a broker firm's, an employer's, the tenant's), so the
 * three read alike. `employerName` adds the employer an account belongs to; `withStatusAction`
 * the deactivate/reactivate button, for those allowed to use it.
 */
export function accountColumns({
  withStatusAction,
  employerName,
}: {
  withStatusAction: boolean;
  employerName?: (account: User) => string;
}): Column<User>[] {
  const columns: Column<User>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (account) => account.name,
      sortValue: (account) => account.name,
    },
    {
      key: 'email',
      header: 'E-mail address',
      render: (account) => account.email,
      sortValue: (account) => account.email,
    },
    {
      key: 'role',
      header: 'Role',
      render: (account) => ROLE_NAMES[account.role],
      sortValue: (account) => account.role,
    },
  ];
  if (employerName) {
    columns.push({
      key: 'employer',
      header: 'Employer',
      render: employerName,
      sortValue: employerName,
    });
  }
  columns.push(
    {
      key: 'status',
      header: 'Status',
      render: (account) => <AccountStatusBadge account={account} />,
      sortValue: (account) => account.status,
    },
    {
      key: 'createdAt',
      header: 'Created',
      render: (account) => <DateTime value={account.createdAt} />,
      sortValue: (account) => account.createdAt,
    },
  );
  if (withStatusAction) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (account) => <AccountStatusAction account={account} />,
    });
  }
  return columns;
}
