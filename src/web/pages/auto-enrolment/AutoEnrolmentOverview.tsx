import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { AE_STATUS_LABELS } from '../../../contracts/auto-enrolment-rules';
import { api } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate } from '../../format';
import { STATUS_ORDER } from './ae-helpers';
import { AE_KEY } from './aeQueries';

const counter = new Intl.NumberFormat('en-IE');

export const AE_OVERVIEW_KEY = [...AE_KEY, 'overview'] as const;

/**
 * Every employer of the firm by its automatic-enrolment position today (the broker
 * dashboard shows every employer's position, docs/decisions/0068-auto-enrolment-readiness.md): how many of its employees stand at each status,
 * each employer's name opening its assessment.
 */
export function AutoEnrolmentOverview() {
  const overview = useQuery({
    queryKey: AE_OVERVIEW_KEY,
    queryFn: () => api(apiRoutes.autoEnrolment.overview),
    // Handed over by the firm's dashboard when it opens (docs/decisions/0118).
    staleTime: SEEDED_FRESH_MS,
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="dashboard-auto-enrolment">
      <Title order={3} id="dashboard-auto-enrolment">
        Automatic enrolment
      </Title>
      <QueryPanel
        query={overview}
        loading="Loading every employer’s automatic-enrolment position"
        isEmpty={(data) => data.employers.length === 0}
        empty="No employer has uploaded a payroll file yet."
      >
        {(data) => (
          <>
            <Text size="sm">
              Pay periods ending from {formatDate(data.windowStart)} to {formatDate(data.windowEnd)}
              .
            </Text>
            <ScrollTable minWidth={720} label="Employers’ automatic-enrolment position">
              <Table striped captionSide="top">
                <Table.Caption ta="left">
                  Every employer’s employees by automatic-enrolment status
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Employer</Table.Th>
                    {STATUS_ORDER.map((status) => (
                      <Table.Th key={status} ta="right">
                        {AE_STATUS_LABELS[status]}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.employers.map((employer) => (
                    <Table.Tr key={employer.employerId}>
                      <Table.Th scope="row">
                        <Anchor
                          component={Link}
                          to={`/employers/${employer.employerId}/auto-enrolment`}
                        >
                          {employer.employerName}
                        </Anchor>
                      </Table.Th>
                      {/* A row of noughts would read as an employer without employees; it has
                        only uploaded no payroll file for these pay periods. Contributions keyed
                        on the payroll grid are not a payroll file, so the words name the file. */}
                      {STATUS_ORDER.every((status) => employer.totals[status] === 0) ? (
                        <Table.Td colSpan={STATUS_ORDER.length}>
                          <Text size="sm" c="dimmed">
                            No payroll file uploaded for these pay periods yet
                          </Text>
                        </Table.Td>
                      ) : (
                        STATUS_ORDER.map((status) => (
                          <Table.Td key={status} ta="right">
                            {counter.format(employer.totals[status])}
                          </Table.Td>
                        ))
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          </>
        )}
      </QueryPanel>
    </Stack>
  );
}
