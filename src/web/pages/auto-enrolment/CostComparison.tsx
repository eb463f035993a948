import { counted } from '../../../contracts/plain-english';
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatCents, formatCentsCompact } from '../../../contracts/money';
import { api, describeError } from '../../api/client';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { costRows, costSpan, costTotals } from './ae-helpers';
import { AE_KEY } from './aeQueries';

const SERIES = [
  { name: 'minimumStandardCents', label: 'Bring the scheme up to the standard', color: 'teal.7' },
  {
    name: 'myFutureFundCents',
    label: 'Employer contributions to My Future Fund',
    color: 'orange.8',
  },
] as const;

/**
 * The employer's cost a year, over the ten years of My Future Fund's rate schedule, of bringing
 * the members below the minimum standard up to it, against those employees being enrolled in My
 * Future Fund (the service computes both with the rule module's costComparison). Each year is its
 * calendar year, as the service gives it: year 1 of the schedule is 2026. The same figures follow
 * as a table, which is what a screen reader reads and what anyone can copy.
 */
export function CostComparison({ employerId, asOf }: { employerId: string; asOf: string }) {
  const headingId = useId();
  const cost = useQuery({
    queryKey: [...AE_KEY, employerId, 'cost', asOf],
    queryFn: () =>
      api(apiRoutes.autoEnrolment.cost, { params: { id: employerId }, query: { asOf } }),
  });
  const rows = cost.data ? costRows(cost.data.years) : [];
  const totals = costTotals(rows);
  const span = costSpan(rows);

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} id={headingId}>
        Cost over ten years
      </Title>
      {cost.isPending && <Loading label="Comparing the costs" />}
      {cost.isError && (
        <Alert color="red" role="alert">
          {describeError(cost.error)}
        </Alert>
      )}
      {cost.isSuccess && cost.data.employees === 0 && (
        <Text>No member is below the standard: there is nothing to compare.</Text>
      )}
      {cost.isSuccess && cost.data.employees > 0 && (
        <>
          <Text>
            For the {counted(cost.data.employees, 'member')} below the standard, bringing the scheme
            up to it costs the employer <strong>{formatCents(totals.minimumStandardCents)}</strong>{' '}
            from {span}; their enrolment in My Future Fund instead costs{' '}
            <strong>{formatCents(totals.myFutureFundCents)}</strong> in employer contributions at
            each year’s rate.
          </Text>
          <figure aria-label={`Cost a year, either way, from ${span}`} style={{ margin: 0 }}>
            <LineChart
              h={280}
              data={rows}
              dataKey="label"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              series={SERIES.map((series) => ({ ...series }))}
              valueFormatter={formatCents}
              curveType="step"
              yAxisProps={{
                tickFormatter: formatCentsCompact,
                width: 70,
              }}
            />
          </figure>
          <ScrollTable minWidth={560} label="Cost a year, either way">
            <Table striped captionSide="top">
              <Table.Caption ta="left">The employer’s cost a year, either way</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Year</Table.Th>
                  <Table.Th ta="right">My Future Fund employer rate</Table.Th>
                  <Table.Th ta="right">Up to the standard</Table.Th>
                  <Table.Th ta="right">My Future Fund</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.year}>
                    <Table.Th scope="row">{row.label}</Table.Th>
                    <Table.Td ta="right">{row.rate}</Table.Td>
                    <Table.Td ta="right">{formatCents(row.minimumStandardCents)}</Table.Td>
                    <Table.Td ta="right">{formatCents(row.myFutureFundCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </>
      )}
    </Stack>
  );
}
