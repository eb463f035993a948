import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import type { PortfolioEmployer } from '../../../contracts/portfolio';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import type { Column } from '../../components/CursorTable';
import { CursorTable } from '../../components/CursorTable';
import { NewEmployerButton } from '../../components/NewEmployerButton';
import { PageHeading } from '../../components/PageHeading';
import { portfolioColumns } from '../../components/portfolioColumns';

function columns(governanceShown: boolean): Column<PortfolioEmployer>[] {
  return [
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
      key: 'schemeCount',
      header: 'Schemes',
      render: (employer) => employer.schemeCount.toLocaleString('en-IE'),
      sortValue: (employer) => employer.schemeCount,
    },
    ...portfolioColumns<PortfolioEmployer>({
      governanceShown,
      noStanding: (employer) => (employer.schemeCount === 0 ? 'No schemes' : 'No registers kept'),
    }),
  ];
}

/**
 * `/employers`: the firm's employers, for its own staff, each with its schemes, members, the worst
 * governance standing among its schemes and the latest pay period received, in one request
 * (docs/decisions/0144-portfolio-lists.md).
 */
export function EmployersPage() {
  const session = useSignedIn();
  const governanceShown = can(session, 'compliance.dashboard');
  return (
    <Stack gap="lg">
      <PageHeading title="Employers">
        {can(session, 'employer.create') && <NewEmployerButton />}
      </PageHeading>
      <CursorTable
        queryKey={['employers', 'portfolio']}
        route={apiRoutes.portfolio.employers}
        columns={columns(governanceShown)}
        caption="Employers"
        rowNoun="employer"
        empty="No employers yet."
        search={{ label: 'Search employers by name', text: (employer) => employer.name }}
      />
      {governanceShown && (
        <Text size="sm" c="dimmed">
          Governance is the worst standing among the employer’s schemes; the governance page has
          each scheme’s duties.
        </Text>
      )}
    </Stack>
  );
}
