import { NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { formatCents } from '../../../contracts/money';
import { counted } from '../../../contracts/plain-english';
import { REMITTANCE_DAYS_AFTER_MONTH, REMITTANCE_RULES } from '../../../contracts/remittance-rules';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import type { Scheme } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate, formatPeriod } from '../../format';
import { RemittanceStatusBadge } from '../employers/RemittanceCalendar';

/** The years the report offers: this one and the five before it. */
const YEARS_OFFERED = 6;

/**
 * The trustees' late-payment report (docs/decisions/0136-contribution-remittance.md): the months of a
 * year in which the scheme's employer remitted late, or has not remitted in full, with the days
 * late. A month paid late stays here after it is paid, though it is no longer overdue.
 */
export function LateRemittanceReport({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const thisYear = Number(todayInIreland(new Date()).slice(0, 4));
  const [year, setYear] = useState(String(thisYear));
  const report = useQuery({
    queryKey: ['schemes', scheme.id, 'late-remittances', year],
    queryFn: () =>
      api(apiRoutes.remittances.lateOfScheme, { params: { id: scheme.id }, query: { year } }),
    enabled: can(session, 'late_remittance.list', scheme),
  });
  if (!can(session, 'late_remittance.list', scheme)) return null;
  const caption = `Months of ${year} remitted late or not in full`;
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-late-remittances">
      <Title order={3} id="governance-late-remittances">
        Late payments by the employer
      </Title>
      <Text size="sm">
        The employer pays what it deducted within {REMITTANCE_DAYS_AFTER_MONTH} days after each
        month’s end ({sourceInWords(REMITTANCE_RULES.remittance)}); a late payment is an offence the
        trustees must see. {sourceInWords(REMITTANCE_RULES.monthsSinceAdded)}.
      </Text>
      <NativeSelect
        label="Year"
        maw={200}
        data={Array.from({ length: YEARS_OFFERED }, (_, index) => String(thisYear - index))}
        value={year}
        onChange={(event) => setYear(event.currentTarget.value)}
      />
      <QueryPanel
        query={report}
        loading="Loading the late-payment report"
        isEmpty={(data) => data.items.length === 0}
        empty={(data) => (
          <>
            No month of {year} was received late, and none since {formatPeriod(data.countedFrom)} is
            missing.
          </>
        )}
      >
        {(data) => (
          <ScrollTable minWidth={760} label={caption}>
            <Table striped captionSide="top">
              <Table.Caption ta="left">{caption}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Month</Table.Th>
                  <Table.Th>Due by</Table.Th>
                  <Table.Th>Deducted</Table.Th>
                  <Table.Th>Received</Table.Th>
                  <Table.Th>Received in full on</Table.Th>
                  <Table.Th>Days late</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((month) => (
                  <Table.Tr key={month.month}>
                    <Table.Th scope="row">{formatPeriod(month.month)}</Table.Th>
                    <Table.Td>{formatDate(month.dueOn)}</Table.Td>
                    <Table.Td>{formatCents(month.expectedCents)}</Table.Td>
                    <Table.Td>{formatCents(month.receivedCents)}</Table.Td>
                    <Table.Td>
                      {month.receivedOn ? formatDate(month.receivedOn) : 'Not yet'}
                    </Table.Td>
                    <Table.Td>
                      {month.status === 'missing'
                        ? `${counted(month.daysLate, 'day')} so far`
                        : counted(month.daysLate, 'day')}
                    </Table.Td>
                    <Table.Td>
                      <RemittanceStatusBadge status={month.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </QueryPanel>
    </Stack>
  );
}
