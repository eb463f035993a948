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
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { actorDescription, recordTypeLabel } from '../../../contracts/audit-text';
import { DATA_REQUEST_KIND_NAMES } from '../../../contracts/data-request-rules';
import type { DataRequestView } from '../../../contracts/data-requests';
import { DASHBOARD_COUNT_LIMIT, DASHBOARD_RECENT_ACTIVITY } from '../../../contracts/overview';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { DateTime } from '../../components/DateTime';
import { Loading } from '../../components/Loading';
import { NewEmployerButton } from '../../components/NewEmployerButton';
import { NewSchemeButton } from '../../components/NewSchemeButton';
import { PageHeading } from '../../components/PageHeading';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { AE_OVERVIEW_KEY, AutoEnrolmentOverview } from '../auto-enrolment/AutoEnrolmentOverview';
import { DataRequestClockBadge } from '../data-requests/DataRequestClock';
import {
  GOVERNANCE_DASHBOARD_KEY,
  StatusCounts,
  useGovernanceDashboard,
} from '../governance/GovernanceDashboardPage';
import { OVERVIEW_KEY } from '../home/overview-cache';
import { SchemesNeedingAttention } from '../home/SchemesNeedingAttention';

const DASHBOARD_KEY = ['dashboard'] as const;
const RECENT_ACTIVITY_KEY = ['audit', 'recent'] as const;

const counter = new Intl.NumberFormat('en-IE');

/**
 * `/dashboard`: the broker firm at a glance for its staff: how many employers, schemes and (for
 * those who may list them) accounts, where to go next, and the latest audit records.
 *
 * The dashboard asks the service once for all it shows (docs/decisions/0118) and hands each
 * section its part; a section then keeps its own part up to date.
 */
export function DashboardPage() {
  const session = useSignedIn();
  const client = useQueryClient();
  const seesAccounts = can(session, 'user.list');
  const dashboard = useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: async () => {
      const composed = await api(apiRoutes.overview.dashboard);
      client.setQueryData(OVERVIEW_KEY, composed.overview);
      if (composed.governance) client.setQueryData(GOVERNANCE_DASHBOARD_KEY, composed.governance);
      if (composed.autoEnrolment) client.setQueryData(AE_OVERVIEW_KEY, composed.autoEnrolment);
      if (composed.recentActivity)
        client.setQueryData(RECENT_ACTIVITY_KEY, composed.recentActivity);
      return composed;
    },
  });
  if (dashboard.isPending) return <Loading label="Loading the dashboard" />;
  if (dashboard.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(dashboard.error)}
      </Alert>
    );
  }
  const { counts } = dashboard.data;
  return (
    <Stack gap="xl">
      <PageHeading title="Dashboard" />
      <SimpleGrid cols={{ base: 1, sm: seesAccounts ? 3 : 2 }}>
        <CountCard label="Employers" counted={counts.employers} to="/employers" />
        <CountCard label="Schemes" counted={counts.schemes} to="/schemes" />
        {seesAccounts && counts.accounts && (
          <CountCard label="Accounts" counted={counts.accounts} to="/users" />
        )}
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
      {dashboard.data.dataRequests && <DataRequestsDue {...dashboard.data.dataRequests} />}
      {can(session, 'audit.read') && <RecentActivity />}
    </Stack>
  );
}

/** The firm's schemes with work waiting (docs/decisions/0045-home-pages-by-role.md): where a BrokerUser's day starts. */
function Attention() {
  const overview = useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: () => api(apiRoutes.overview.get),
    staleTime: SEEDED_FRESH_MS,
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
      <QueryPanel query={dashboard} loading="Loading the schemes’ governance">
        {(data) => <StatusCounts counts={data.counts} />}
      </QueryPanel>
      <Anchor component={Link} to="/governance" size="sm">
        What needs attention, and the due dates that are overdue or due soon
      </Anchor>
    </Stack>
  );
}

function CountCard({
  label,
  counted,
  to,
}: {
  label: string;
  /** How many the person reaches, counted by the service up to DASHBOARD_COUNT_LIMIT. */
  counted: { count: number; complete: boolean };
  to: string;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={label}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text fz={32} fw={700} lh={1.2}>
          {counted.complete
            ? counter.format(counted.count)
            : `More than ${counter.format(DASHBOARD_COUNT_LIMIT)}`}
        </Text>
        <Anchor component={Link} to={to} size="sm">
          View {label.toLowerCase()}
        </Anchor>
      </Stack>
    </Paper>
  );
}

function RecentActivity() {
  const recent = useQuery({
    queryKey: RECENT_ACTIVITY_KEY,
    queryFn: () => api(apiRoutes.audit.list, { query: { limit: DASHBOARD_RECENT_ACTIVITY } }),
    staleTime: SEEDED_FRESH_MS,
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
                <Table.Th>What happened</Table.Th>
                <Table.Th>Record</Table.Th>
                <Table.Th>By</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {recent.data.items.map((record) => (
                <Table.Tr key={record.id}>
                  <Table.Td>
                    <DateTime value={record.timestamp} />
                  </Table.Td>
                  {/* In the audit log's own words (src/contracts/audit-text.ts), as the log shows them. */}
                  <Table.Td>{record.summary}</Table.Td>
                  <Table.Td>{recordTypeLabel(record.entityType)}</Table.Td>
                  <Table.Td>{actorDescription(record)}</Table.Td>
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

/**
 * The firm's data-subject requests still to be answered, the earliest due first, each with its
 * clock in words (docs/decisions/0137-data-subject-requests.md).
 */
function DataRequestsDue({ items, more }: { items: DataRequestView[]; more: boolean }) {
  const caption = 'Data-subject requests still to be answered, the earliest due first';
  return (
    <Stack gap="sm" component="section" aria-labelledby="dashboard-data-requests">
      <Title order={3} id="dashboard-data-requests">
        Data requests
      </Title>
      {items.length === 0 ? (
        <Text size="sm">No data-subject request is waiting for an answer.</Text>
      ) : (
        <ScrollTable minWidth={560} label={caption}>
          <Table striped captionSide="top">
            <Table.Caption ta="left">{caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Member</Table.Th>
                <Table.Th>Request</Table.Th>
                <Table.Th>Clock</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((request) => (
                <Table.Tr key={request.id}>
                  <Table.Th scope="row">{request.memberName}</Table.Th>
                  <Table.Td>{DATA_REQUEST_KIND_NAMES[request.kind]}</Table.Td>
                  <Table.Td>
                    <DataRequestClockBadge clock={request.clock} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <Anchor component={Link} to="/data-requests" size="sm">
        {more ? 'Every data request, and the others waiting' : 'Every data request'}
      </Anchor>
    </Stack>
  );
}
