import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { api, describeError } from '../../api/client';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { AccessGate } from '../../components/AccessGate';
import { fetchAllPages } from '../../components/allPages';
import { DateTime } from '../../components/DateTime';
import { Loading } from '../../components/Loading';
import { NewEmployerButton } from '../../components/NewEmployerButton';
import { NewSchemeButton } from '../../components/NewSchemeButton';
import { PageHeading } from '../../components/PageHeading';
import { ScrollTable } from '../../components/ScrollTable';
import { PAGES } from '../../layout/pages';
import { AutoEnrolmentOverview } from '../auto-enrolment/AutoEnrolmentOverview';
import { StatusCounts, useGovernanceDashboard } from '../governance/GovernanceDashboardPage';
import { SchemesNeedingAttention } from '../home/SchemesNeedingAttention';

/** Counting walks the list a page at a time; beyond this the dashboard says "more than". */
const COUNT_LIMIT = 1000;
const RECENT_ACTIVITY = 8;
const counter = new Intl.NumberFormat('en-IE');

/**
 * `/dashboard`: the broker firm at a glance for its staff: how many employers, schemes and (for
 * those who may list them) accounts, where to go next, and the latest audit records.
 */
export function DashboardPage() {
  return (
    <AccessGate access={PAGES.dashboard}>
      <Dashboard />
    </AccessGate>
  );
}

function Dashboard() {
  const session = useSignedIn();
  const seesAccounts = can(session, 'user.list');
  return (
    <Stack gap="xl">
      <PageHeading title="Dashboard" />
      <SimpleGrid cols={{ base: 1, sm: seesAccounts ? 3 : 2 }}>
        <CountCard label="Employers" route={apiRoutes.employers.list} to="/employers" />
        <CountCard label="Schemes" route={apiRoutes.schemes.list} to="/schemes" />
        {seesAccounts && <CountCard label="Accounts" route={apiRoutes.users.list} to="/users" />}
      </SimpleGrid>
      <Stack gap="sm" component="section" aria-labelledby="dashboard-actions">
        <Title order={3} id="dashboard-actions">
          Quick actions
        </Title>
        <Group gap="sm">
          {can(session, 'employer.create') && <NewEmployerButton />}
          {can(session, 'scheme.create') && <NewSchemeButton />}
          {can(session, 'audit.read') && (
            <Button component={Link} to="/audit" variant="default">
              Open the audit log
            </Button>
          )}
        </Group>
      </Stack>
      <Attention />
      {can(session, 'compliance.dashboard') && <Governance />}
      {can(session, 'auto_enrolment.overview') && <AutoEnrolmentOverview />}
      {can(session, 'audit.read') && <RecentActivity />}
    </Stack>
  );
}

/** The firm's schemes with work waiting (docs/decisions/0045-home-pages-by-role.md): where a BrokerUser's day starts. */
function Attention() {
  const overview = useQuery({
    queryKey: ['overview'],
    queryFn: () => api(apiRoutes.overview.get),
  });
  if (overview.isPending) return <Loading label="Loading the schemes that need attention" />;
  if (overview.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(overview.error)}
      </Alert>
    );
  }
  return <SchemesNeedingAttention overview={overview.data} withEmployer />;
}

/** The firm's schemes by governance standing at a glance; the governance page has the detail. */
function Governance() {
  const dashboard = useGovernanceDashboard();
  return (
    <Stack gap="sm" component="section" aria-labelledby="dashboard-governance">
      <Title order={3} id="dashboard-governance">
        Governance
      </Title>
      {dashboard.isPending ? (
        <Loading label="Loading the schemes’ governance" />
      ) : dashboard.isError ? (
        <Alert color="red" role="alert">
          {describeError(dashboard.error)}
        </Alert>
      ) : (
        <StatusCounts counts={dashboard.data.counts} />
      )}
      <Anchor component={Link} to="/governance" size="sm">
        What needs attention, and the next 90 days of due dates
      </Anchor>
    </Stack>
  );
}

function CountCard({
  label,
  route,
  to,
}: {
  label: string;
  /** The list counted. */
  route:
    | typeof apiRoutes.employers.list
    | typeof apiRoutes.schemes.list
    | typeof apiRoutes.users.list;
  to: string;
}) {
  const count = useQuery({
    queryKey: ['dashboard', 'count', route.path],
    queryFn: () => fetchAllPages(route, {}, COUNT_LIMIT),
  });
  return (
    <Paper withBorder p="md" component="section" aria-label={label}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        {count.isPending ? (
          <Loading label={`Counting ${label.toLowerCase()}`} />
        ) : count.isError ? (
          <Text c="red" size="sm" role="alert">
            {describeError(count.error)}
          </Text>
        ) : (
          <Text fz={32} fw={700} lh={1.2}>
            {count.data.complete
              ? counter.format(count.data.items.length)
              : `More than ${counter.format(COUNT_LIMIT)}`}
          </Text>
        )}
        <Anchor component={Link} to={to} size="sm">
          View {label.toLowerCase()}
        </Anchor>
      </Stack>
    </Paper>
  );
}

function RecentActivity() {
  const recent = useQuery({
    queryKey: ['audit', 'recent'],
    queryFn: () => api(apiRoutes.audit.list, { query: { limit: RECENT_ACTIVITY } }),
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="dashboard-activity">
      <Title order={3} id="dashboard-activity">
        Recent activity
      </Title>
      {recent.isPending ? (
        <Loading label="Loading recent activity" />
      ) : recent.isError ? (
        <Alert color="red" role="alert">
          {describeError(recent.error)}
        </Alert>
      ) : recent.data.items.length === 0 ? (
        <Text c="dimmed">Nothing has happened yet.</Text>
      ) : (
        <ScrollTable minWidth={600} label="Recent activity">
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Entity</Table.Th>
                <Table.Th>By</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {recent.data.items.map((record) => (
                <Table.Tr key={record.id}>
                  <Table.Td>
                    <DateTime value={record.timestamp} />
                  </Table.Td>
                  <Table.Td>{record.action}</Table.Td>
                  <Table.Td>{record.entityType}</Table.Td>
                  <Table.Td>{record.actorType}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <Anchor component={Link} to="/audit" size="sm">
        Everything in the audit log
      </Anchor>
    </Stack>
  );
}
