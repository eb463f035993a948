import { Anchor, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import type { Employer } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { AccessGate } from '../../components/AccessGate';
import type { Column } from '../../components/CursorTable';
import { CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { NewEmployerButton } from '../../components/NewEmployerButton';
import { PageHeading } from '../../components/PageHeading';
import { PAGES } from '../../layout/pages';

const columns: Column<Employer>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (employer) => (
      <Anchor component={Link} to={`/employers/${employer.id}`}>
        {employer.name}
      </Anchor>
    ),
    sortValue: (employer) => employer.name,
  },
  {
    key: 'createdAt',
    header: 'Created',
    render: (employer) => <DateTime value={employer.createdAt} />,
    sortValue: (employer) => employer.createdAt,
  },
  {
    key: 'updatedAt',
    header: 'Last changed',
    render: (employer) => <DateTime value={employer.updatedAt} />,
    sortValue: (employer) => employer.updatedAt,
  },
];

/** `/employers`: the firm's employers, for its own staff. */
export function EmployersPage() {
  return (
    <AccessGate access={PAGES.employers}>
      <Employers />
    </AccessGate>
  );
}

function Employers() {
  const session = useSignedIn();
  return (
    <Stack gap="lg">
      <PageHeading title="Employers">
        {can(session, 'employer.create') && <NewEmployerButton />}
      </PageHeading>
      <CursorTable
        queryKey={['employers', 'list']}
        route={apiRoutes.employers.list}
        columns={columns}
        caption="Employers"
        rowNoun="employer"
        empty="No employers yet."
        search={{ label: 'Search employers by name', text: (employer) => employer.name }}
      />
    </Stack>
  );
}
