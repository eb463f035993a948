import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Alert, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatCents, formatCentsCompact } from '../../../contracts/money';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Holdings, Member, ValueHistory } from '../../api/types';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate } from '../../format';
import { holdingsQuery, valueHistoryKey } from './member-page-cache';

/** What the holdings say beside the value, in the reader's words (`own`: the member's own record). */
function notesOf(holdings: Holdings, own: boolean): string[] {
  const notes: string[] = [];
  if (holdings.defaultFund) {
    notes.push(
      own
        ? 'You have not chosen your funds, so your money is invested in the scheme’s default fund.'
        : 'No fund choice has been made, so the money is invested in the scheme’s default fund.',
    );
  }
  if (holdings.uninvestedCents !== 0) {
    notes.push(
      `${formatCents(holdings.uninvestedCents)} has been received and is waiting to be invested at the funds’ next prices.`,
    );
  }
  if (holdings.switchingCents !== 0) {
    notes.push(
      `${formatCents(holdings.switchingCents)} is between funds while a switch is carried out.`,
    );
  }
  return notes;
}

function ValueChart({ history, own }: { history: ValueHistory; own: boolean }) {
  const headingId = useId();
  if (history.points.length < 2) return null;
  const rows = history.points.map((point) => ({ ...point, day: formatDate(point.on) }));
  return (
    <Stack gap="xs">
      <Title order={4} id={headingId}>
        {own ? 'What your pension has been worth' : 'Value over time'}
      </Title>
      <figure aria-labelledby={headingId} style={{ margin: 0 }}>
        <LineChart
          h={260}
          data={rows}
          dataKey="day"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          series={[
            { name: 'valueCents', label: 'Value', color: 'blue.7' },
            { name: 'paidInCents', label: 'Paid in', color: 'gray.6' },
          ]}
          valueFormatter={formatCents}
          yAxisProps={{ tickFormatter: formatCentsCompact, width: 70 }}
        />
        <VisuallyHidden>
          <Table>
            <Table.Caption>Value at each month end, beside what had been paid in</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                <Table.Th>Value</Table.Th>
                <Table.Th>Paid in</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.on}>
                  <Table.Td>{row.day}</Table.Td>
                  <Table.Td>{formatCents(row.valueCents)}</Table.Td>
                  <Table.Td>{formatCents(row.paidInCents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </VisuallyHidden>
      </figure>
    </Stack>
  );
}

/**
 * What a DC member's pension is worth today: the value first, then what it is made of (units of
 * each fund at its latest price), what is waiting or switching, and its value at each month end
 * beside what was paid in (docs/decisions/0127-dc-money.md). Staff read the same as the member.
 */
export function PensionValuePanel({ member, own }: { member: Member; own: boolean }) {
  const headingId = useId();
  const holdings = useQuery(holdingsQuery(member.id));
  const history = useQuery({
    queryKey: valueHistoryKey(member.id),
    queryFn: () => api(apiRoutes.holdings.valueHistory, { params: { id: member.id }, query: {} }),
    staleTime: SEEDED_FRESH_MS,
  });
  if (holdings.isPending) return <Loading label="Loading what the pension is worth" />;
  if (holdings.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(holdings.error)}
      </Alert>
    );
  }
  const held = holdings.data;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} id={headingId}>
        {own ? 'What your pension is worth' : 'What the pension is worth'}
      </Title>
      <Paper withBorder p="md">
        <Text size="2rem" fw={700} data-testid="pension-value">
          {formatCents(held.valueCents)}
        </Text>
        <Text c="dimmed" size="sm">
          On {formatDate(held.on)}, at each fund’s latest price
        </Text>
      </Paper>
      {held.needsFund && (
        <Alert color="yellow" role="status">
          {own
            ? 'You have not chosen your funds and the scheme has no default fund: your money waits, uninvested, until a fund choice is made.'
            : 'No fund choice has been made and the scheme has no default fund: the money waits, uninvested, until a fund choice is made.'}
        </Alert>
      )}
      {notesOf(held, own).map((note) => (
        <Text key={note}>{note}</Text>
      ))}
      {held.funds.length > 0 && (
        <ScrollTable minWidth={520} label="Units held in each fund">
          <Table striped>
            <Table.Caption>Units held in each fund</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Fund</Table.Th>
                <Table.Th ta="right">Units</Table.Th>
                <Table.Th ta="right">Unit price</Table.Th>
                <Table.Th>Price of</Table.Th>
                <Table.Th ta="right">Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {held.funds.map((fund) => (
                <Table.Tr key={fund.fundId}>
                  <Table.Td>{fund.fundName}</Table.Td>
                  <Table.Td ta="right">{fund.units}</Table.Td>
                  <Table.Td ta="right">€{fund.price}</Table.Td>
                  <Table.Td>{formatDate(fund.priceOn)}</Table.Td>
                  <Table.Td ta="right">{formatCents(fund.valueCents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {history.isError && <Alert color="red">{describeError(history.error)}</Alert>}
      {history.isSuccess && <ValueChart history={history.data} own={own} />}
    </Stack>
  );
}
