import { Anchor, Button, Group, Stack, Table } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatCents } from '../../../contracts/money';
import { api } from '../../api/client';
import type { Scheme } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import {
  currentPayPeriodEntry,
  PayPeriodInput,
  payPeriodRule,
  readPayPeriod,
} from '../../components/PayPeriodInput';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { formatPeriod } from '../../format';

/**
 * The scheme's contributions per pay period with totals by kind (docs/decisions/0048-contributions-as-a-payroll-grid.md), each leading
 * to that period's grid, and a way to open the grid for any period.
 */
export function SchemeContributionsPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const periods = useInfiniteQuery({
    queryKey: ['schemes', scheme.id, 'contribution-periods'],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      api(apiRoutes.payroll.periods, {
        params: { id: scheme.id },
        query: { limit: 24, cursor: pageParam },
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  return (
    <Stack gap="md">
      {canChange(session, 'payroll.save', scheme) && <OpenPeriod schemeId={scheme.id} />}
      <QueryPanel
        query={periods}
        loading="Loading the contributions per pay period"
        isEmpty={(data) => data.pages[0]?.items.length === 0}
        empty="No contributions are recorded for this scheme yet."
      >
        {(data) => (
          <>
            <ScrollTable minWidth={640} label="Contributions per pay period">
              <Table striped>
                <Table.Caption>Contributions per pay period, newest first</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Pay period</Table.Th>
                    <Table.Th ta="right">Members</Table.Th>
                    <Table.Th ta="right">Employee</Table.Th>
                    <Table.Th ta="right">Employer</Table.Th>
                    <Table.Th ta="right">AVC</Table.Th>
                    <Table.Th ta="right">Total</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.pages.flatMap((page) =>
                    page.items.map((row) => (
                      <Table.Tr key={row.period}>
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={`/schemes/${scheme.id}/payroll/${row.period}`}
                          >
                            {formatPeriod(row.period)}
                          </Anchor>
                        </Table.Td>
                        <Table.Td ta="right">{row.memberCount}</Table.Td>
                        <Table.Td ta="right">{formatCents(row.employeeCents)}</Table.Td>
                        <Table.Td ta="right">{formatCents(row.employerCents)}</Table.Td>
                        <Table.Td ta="right">{formatCents(row.avcCents)}</Table.Td>
                        <Table.Td ta="right" fw={600}>
                          {formatCents(row.totalCents)}
                        </Table.Td>
                      </Table.Tr>
                    )),
                  )}
                </Table.Tbody>
              </Table>
            </ScrollTable>
            {periods.hasNextPage && (
              <Button
                variant="default"
                onClick={() => void periods.fetchNextPage()}
                loading={periods.isFetchingNextPage}
              >
                Show earlier periods
              </Button>
            )}
          </>
        )}
      </QueryPanel>
    </Stack>
  );
}

/**
 * "Enter a pay period": the period typed as payroll writes it, MM/YYYY, opens its grid. It starts
 * filled in with this month, so the button opens a period without a word typed.
 */
function OpenPeriod({ schemeId }: { schemeId: string }) {
  const navigate = useNavigate();
  const [text, setText] = useState(currentPayPeriodEntry);
  const [error, setError] = useState<string | null>(null);
  const open = (event: FormEvent) => {
    event.preventDefault();
    const problem = payPeriodRule(text);
    const period = readPayPeriod(text);
    if (problem !== null || period === null) {
      setError(problem);
      return;
    }
    void navigate({ to: `/schemes/${schemeId}/payroll/${period}` });
  };
  return (
    <form onSubmit={open} noValidate>
      <Group align="flex-end" gap="sm">
        <PayPeriodInput
          value={text}
          error={error}
          onChange={(typed) => {
            setText(typed);
            setError(null);
          }}
          maw={200}
        />
        <Button type="submit">Enter or correct this period</Button>
      </Group>
    </form>
  );
}
