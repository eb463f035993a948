import { Code, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { PRSA_ARRANGEMENT } from '../../../contracts/auto-enrolment';
import { fetchAllPages } from '../../components/allPages';

/**
 * What the Arrangement column of a payroll file may hold for this employer: the id of each of
 * its schemes (the service matches pay to a scheme by id, decisions.md §6), or PRSA. A payroll
 * clerk knows the scheme by name, so each id is shown beside it.
 */
export function ArrangementIds({ employerId }: { employerId: string }) {
  const schemes = useQuery({
    queryKey: ['schemes', 'list', { employerId }, 'all'],
    queryFn: () => fetchAllPages(apiRoutes.schemes.list, { query: { employerId } }),
  });
  if (!schemes.isSuccess) return null;
  return (
    <Table withTableBorder captionSide="top" maw={720}>
      <Table.Caption ta="left">
        What the Arrangement column holds: a scheme’s id from this list, {PRSA_ARRANGEMENT} for a
        PRSA paid through payroll, or nothing
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Scheme</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Arrangement to enter</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {schemes.data.items.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={3}>
              <Text size="sm">This employer has no schemes.</Text>
            </Table.Td>
          </Table.Tr>
        )}
        {schemes.data.items.map((scheme) => (
          <Table.Tr key={scheme.id}>
            <Table.Td>{scheme.name}</Table.Td>
            <Table.Td>{scheme.type}</Table.Td>
            <Table.Td>
              <Code>{scheme.id}</Code>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
