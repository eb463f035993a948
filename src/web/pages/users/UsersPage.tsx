import { Stack } from '@mantine/core';
import { apiRoutes } from '../../../contracts/api-routes';
import type { User } from '../../api/types';
import { accountColumns } from '../../components/accountColumns';
import { useAllEmployers } from '../../components/allPages';
import { CursorTable } from '../../components/CursorTable';
import { NewAccountButton } from '../../components/NewAccountButton';
import { PageHeading } from '../../components/PageHeading';

/**
 * `/users`: every account of the BrokerAdmin's tenant, to deactivate or reactivate, and to resend
 * an invitation. The BrokerAdmin invites the firm's staff here, another BrokerAdmin included; an
 * employer's accounts are made on its page (docs/decisions/0143-who-invites-whom.md).
 */
export function UsersPage() {
  const employers = useAllEmployers();
  const names = new Map(
    (employers.data?.items ?? []).map((employer) => [employer.id, employer.name]),
  );
  const employerName = (account: User) =>
    account.employerId === null ? '—' : (names.get(account.employerId) ?? 'Unknown employer');
  return (
    <Stack gap="lg">
      <PageHeading title="Users">
        <NewAccountButton target={{ route: apiRoutes.users.invite }} />
      </PageHeading>
      <CursorTable
        queryKey={['accounts', 'tenant']}
        route={apiRoutes.users.list}
        columns={accountColumns({ withStatusAction: true, employerName })}
        caption="Accounts of the firm and its employers"
        rowNoun="account"
        empty="No accounts yet."
        search={{
          label: 'Search accounts by name or e-mail address',
          text: (account) => `${account.name} ${account.email}`,
        }}
      />
    </Stack>
  );
}
