import { Alert, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { CONTRIBUTION_KINDS, contributionKindLabels } from '../../../contracts/contributions';
import { formatCents } from '../../../contracts/money';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Member, PaidIn } from '../../api/types';
import { useSignedIn } from '../../auth/session';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { formatPeriod } from '../../format';
import { memberSummaryKey } from './member-page-cache';

/** Each row, its kind in the words the page's chart and contributions table use too. */
const rowsFor = (ownRecord: boolean): Array<[keyof PaidIn, string]> => {
  const labels = contributionKindLabels(ownRecord);
  return [
    ...CONTRIBUTION_KINDS.map((kind): [keyof PaidIn, string] => [`${kind}Cents`, labels[kind]]),
    ['totalCents', 'Total paid in'],
  ];
};

/**
 * A member's pension at a glance: their scheme and employer by name, and what
 * has been paid in, this tax year and in all, by who paid it. Staff see the same as the member.
 */
export function PensionSummary({ member }: { member: Member }) {
  // Worded for the member when it is their own record they read.
  const ownRecord = useSignedIn().account.memberId === member.id;
  const summary = useQuery({
    queryKey: memberSummaryKey(member.id),
    queryFn: () => api(apiRoutes.members.summary, { params: { id: member.id } }),
    staleTime: SEEDED_FRESH_MS,
  });
  if (summary.isPending) return <Loading label="Loading the pension summary" />;
  if (summary.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(summary.error)}
      </Alert>
    );
  }
  const data = summary.data;
  return (
    <Stack gap="sm" component="section" aria-labelledby="pension-summary">
      <Title order={3} id="pension-summary">
        {ownRecord ? 'Your pension' : 'Pension summary'}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            Scheme
          </Text>
          <Text fw={600}>{data.scheme.name}</Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            Employer
          </Text>
          <Text fw={600}>{data.employer.name}</Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            Latest contributions
          </Text>
          <Text fw={600}>{data.lastPeriod ? formatPeriod(data.lastPeriod) : 'None yet'}</Text>
        </Paper>
      </SimpleGrid>
      <ScrollTable minWidth={420} label="What has been paid in">
        <Table striped>
          <Table.Caption>What has been paid in, corrections included</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Paid in</Table.Th>
              <Table.Th ta="right">This tax year ({data.taxYear.year})</Table.Th>
              <Table.Th ta="right">In all</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rowsFor(ownRecord).map(([key, words]) => (
              <Table.Tr key={key} fw={key === 'totalCents' ? 700 : undefined}>
                <Table.Td>{words}</Table.Td>
                <Table.Td ta="right">{formatCents(data.taxYear[key])}</Table.Td>
                <Table.Td ta="right">{formatCents(data.allTime[key])}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}
