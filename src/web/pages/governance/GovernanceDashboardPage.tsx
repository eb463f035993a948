import { Anchor, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  DUE_SOON_DAYS,
  OBLIGATION_NAMES,
  OBLIGATION_STATUS_LABELS,
} from '../../../contracts/governance-rules';
import { nounFor } from '../../../contracts/plain-english';
import { api } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { CalendarEntry, ComplianceStatus, GovernanceDashboard } from '../../api/types';
import { PageHeading } from '../../components/PageHeading';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { DueDatesTable, StatusBadge } from './ComplianceParts';
import { shownDate } from './governance-helpers';
import { GOVERNANCE_KEY } from './governanceQueries';

const counter = new Intl.NumberFormat('en-IE');

export const GOVERNANCE_DASHBOARD_KEY = [...GOVERNANCE_KEY, 'dashboard'] as const;

export function useGovernanceDashboard() {
  return useQuery({
    queryKey: GOVERNANCE_DASHBOARD_KEY,
    queryFn: () => api(apiRoutes.compliance.dashboard),
    // Handed over by the firm's dashboard when it opens (docs/decisions/0118).
    staleTime: SEEDED_FRESH_MS,
  });
}

/** A link to a scheme's governance tab, named for what it opens. */
export function SchemeGovernanceLink({ schemeId, name }: { schemeId: string; name: string }) {
  return (
    <Anchor
      renderRoot={(props) => (
        <Link
          {...props}
          to="/schemes/$schemeId"
          params={{ schemeId }}
          search={{ tab: 'governance' }}
        />
      )}
    >
      {name}
    </Anchor>
  );
}

const linkOf = (entry: CalendarEntry) => (
  <SchemeGovernanceLink schemeId={entry.schemeId} name={entry.schemeName} />
);

/**
 * `/governance`: every scheme within reach by its standing under IORP II, with counts, what needs
 * attention in each, and the due dates it reminds of: overdue, or due within DUE_SOON_DAYS. A duty
 * done is not listed until its next day comes that close, so a scheme that is OK lists nothing.
 */
export function GovernanceDashboardPage() {
  const dashboard = useGovernanceDashboard();
  return (
    <Stack gap="xl">
      <PageHeading title="Governance">
        <Anchor component={Link} to="/compliance-calendar">
          Open the compliance calendar
        </Anchor>
      </PageHeading>
      <QueryPanel query={dashboard} loading="Loading the governance of every scheme">
        {(data) => (
          <>
            <StatusCounts counts={data.counts} />
            <SchemesByStatus schemes={data.schemes} />
            <Stack gap="sm" component="section" aria-labelledby="governance-upcoming">
              <Title order={3} id="governance-upcoming">
                Overdue and due soon
              </Title>
              {data.upcoming.length === 0 ? (
                <Text>Nothing is overdue or falls due in the next {DUE_SOON_DAYS} days.</Text>
              ) : (
                <DueDatesTable
                  entries={data.upcoming}
                  caption={`Due dates that have passed or fall in the next ${DUE_SOON_DAYS} days, soonest first`}
                  schemeLink={linkOf}
                />
              )}
              <Text size="sm">
                A duty done leaves this list until its next date is near. The compliance calendar
                has every due date, those further off too.
              </Text>
            </Stack>
          </>
        )}
      </QueryPanel>
    </Stack>
  );
}

/** The order the counts are read in: what needs acting on first, as the API orders schemes. */
const COUNT_ORDER: readonly ComplianceStatus[] = ['overdue', 'incomplete', 'due_soon', 'ok'];

/** How many schemes stand at each status; each count names its status in words. */
export function StatusCounts({ counts }: { counts: GovernanceDashboard['counts'] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="section" aria-label="Schemes by status">
      {COUNT_ORDER.map((status) => (
        <Paper
          key={status}
          withBorder
          p="md"
          component="section"
          aria-label={`${OBLIGATION_STATUS_LABELS[status]}: ${counts[status]}`}
        >
          <Stack gap={4} align="flex-start">
            <StatusBadge status={status} />
            <Text fz={32} fw={700} lh={1.2}>
              {counter.format(counts[status])}
            </Text>
            <Text size="sm">{nounFor(counts[status], 'scheme')}</Text>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function SchemesByStatus({ schemes }: { schemes: GovernanceDashboard['schemes'] }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-schemes">
      <Title order={3} id="governance-schemes">
        Schemes
      </Title>
      {schemes.length === 0 ? (
        <Text>No scheme yet.</Text>
      ) : (
        <ScrollTable minWidth={720} label="Schemes by governance status">
          <Table striped captionSide="top">
            <Table.Caption ta="left">
              Every scheme by governance status, worst first, and what needs attention
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Scheme</Table.Th>
                <Table.Th>Employer</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>What needs attention</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {schemes.map((scheme) => (
                <Table.Tr key={scheme.schemeId}>
                  <Table.Td>
                    <SchemeGovernanceLink schemeId={scheme.schemeId} name={scheme.schemeName} />
                  </Table.Td>
                  <Table.Td>{scheme.employerName}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={scheme.status} />
                  </Table.Td>
                  <Table.Td>
                    {scheme.attention.length === 0 ? (
                      'Nothing'
                    ) : (
                      <Stack gap={2} component="ul" m={0} pl="md">
                        {scheme.attention.map((obligation) => (
                          <Text
                            component="li"
                            size="sm"
                            key={`${obligation.kind}|${obligation.subjectId ?? ''}|${obligation.reason}`}
                          >
                            {OBLIGATION_STATUS_LABELS[obligation.status]}:{' '}
                            {OBLIGATION_NAMES[obligation.kind].toLowerCase()}
                            {obligation.dueOn ? ` (due ${shownDate(obligation.dueOn)})` : ''}.{' '}
                            {obligation.reason}
                          </Text>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
