import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  CONTRIBUTION_KINDS,
  contributionKindLabels,
  contributionKindRank,
} from '../../../contracts/contributions';
import { todayInIreland } from '../../../contracts/irish-dates';
import { formatCents, formatCentsCompact } from '../../../contracts/money';
import { api, describeError, type Page } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Contribution, ContributionKind } from '../../api/types';
import { Loading } from '../../components/Loading';
import { formatPeriod } from '../../format';
import { chartMonths } from './chart-months';
import { type ChartRange, chartFrom, chartKey, DEFAULT_CHART_RANGE } from './member-page-cache';

const RANGES: { value: ChartRange; label: string }[] = [
  { value: '12', label: '12 months' },
  { value: '24', label: '24 months' },
  { value: 'all', label: 'All' },
];

const COLOURS: Record<ContributionKind, string> = {
  employee: 'blue.6',
  employer: 'teal.6',
  avc: 'grape.6',
};
/** The kinds as the legend and the table beside it name them: in the member's words on their own record. */
const kindsFor = (ownRecord: boolean) => {
  const labels = contributionKindLabels(ownRecord);
  return CONTRIBUTION_KINDS.map((kind) => ({ kind, label: labels[kind], color: COLOURS[kind] }));
};

/** One bar group: a month's totals in cents (money stays in whole cents up to the display). */
type MonthTotals = { month: string; period: string } & Record<ContributionKind, number>;

/**
 * Every contribution of the range, page by page. The API has no totals endpoint, so the months
 * are summed here; a member has at most a few contributions a month, so even "All" is a handful
 * of pages.
 */
async function loadRange(memberId: string, from: string | undefined): Promise<Contribution[]> {
  const all: Contribution[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<Contribution> = await api(apiRoutes.contributions.listOfMember, {
      params: { id: memberId },
      query: { from, limit: 100, cursor },
    });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

/** Totals per month and kind, over the months `chartMonths` gives the chart. */
function monthlyTotals(
  contributions: Contribution[],
  from: string | undefined,
  joinedOn: string,
): MonthTotals[] {
  const byPeriod = new Map<string, Record<ContributionKind, number>>();
  for (const contribution of contributions) {
    const totals = byPeriod.get(contribution.period) ?? { employee: 0, employer: 0, avc: 0 };
    totals[contribution.kind] += contribution.amountCents;
    byPeriod.set(contribution.period, totals);
  }
  const months = chartMonths({
    rangeFrom: from,
    joinedOn,
    periods: [...byPeriod.keys()],
    // This month in Ireland (docs/decisions/0050-irish-dates.md).
    thisMonth: todayInIreland(new Date()).slice(0, 7),
  });
  return months.map((period) => ({
    month: formatPeriod(period),
    period,
    ...(byPeriod.get(period) ?? { employee: 0, employer: 0, avc: 0 }),
  }));
}

/** The legend and the tooltip list the kinds as `CONTRIBUTION_KINDS` does, not by their names. */
const inKindOrder = (item: { dataKey?: unknown }) => contributionKindRank(String(item.dataKey));

/**
 * The member's monthly contribution totals by kind, as stacked bars with the figures beside, the
 * kinds named as the contributions table and the pension summary name them (`ownRecord`: the
 * member reading their own).
 */
export function ContributionsChart({
  memberId,
  joinedOn,
  ownRecord = false,
}: {
  memberId: string;
  /** The day the member joined: the chart starts no earlier (`chartMonths`). */
  joinedOn: string;
  ownRecord?: boolean;
}) {
  const KINDS = kindsFor(ownRecord);
  const [range, setRange] = useState<ChartRange>(DEFAULT_CHART_RANGE);
  const headingId = useId();
  const from = chartFrom(range);
  const contributions = useQuery({
    queryKey: chartKey(memberId, range),
    queryFn: () => loadRange(memberId, from),
    staleTime: SEEDED_FRESH_MS,
  });
  const months = contributions.data ? monthlyTotals(contributions.data, from, joinedOn) : [];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4} id={headingId}>
          {ownRecord ? 'Paid in each month' : 'Monthly totals by kind'}
        </Title>
        <SegmentedControl
          aria-label="Period of the chart"
          size="xs"
          value={range}
          onChange={(value) => setRange(value as ChartRange)}
          data={RANGES}
        />
      </Group>
      {contributions.isPending && <Loading label="Loading the monthly totals" />}
      {contributions.isError && <Alert color="red">{describeError(contributions.error)}</Alert>}
      {contributions.isSuccess && months.length === 0 && (
        <Text c="dimmed">No contributions in this period.</Text>
      )}
      {months.length > 0 && (
        <figure aria-labelledby={headingId} style={{ margin: 0 }}>
          <BarChart
            h={260}
            data={months}
            dataKey="month"
            type="stacked"
            withLegend
            legendProps={{ verticalAlign: 'bottom', itemSorter: inKindOrder }}
            tooltipProps={{ itemSorter: inKindOrder }}
            series={KINDS.map(({ kind, label, color }) => ({ name: kind, label, color }))}
            valueFormatter={formatCents}
            yAxisProps={{
              tickFormatter: formatCentsCompact,
              width: 70,
            }}
          />
          <VisuallyHidden>
            <Table>
              <Table.Caption>
                {ownRecord
                  ? 'Paid in each month, by who paid it'
                  : 'Monthly contribution totals by kind'}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Month</Table.Th>
                  {KINDS.map(({ kind, label }) => (
                    <Table.Th key={kind}>{label}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {months.map((month) => (
                  <Table.Tr key={month.period}>
                    <Table.Td>{month.month}</Table.Td>
                    {KINDS.map(({ kind }) => (
                      <Table.Td key={kind}>{formatCents(month[kind])}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </VisuallyHidden>
        </figure>
      )}
    </Stack>
  );
}
