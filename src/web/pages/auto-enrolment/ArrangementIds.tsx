import { Code, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { PRSA_ARRANGEMENT } from '../../../contracts/auto-enrolment';
import { fetchAllPages } from '../../components/allPages';
import { arrangementChoices } from './ae-helpers';

/**
 * What the Arrangement column of a payroll file may hold for this employer: the name of one of its
 * schemes as the payroll writes it, whatever its case, or PRSA (docs/imports.md, "Payroll"). Where
 * two schemes share a name (`arrangementChoices`), only the id tells them apart, and the table
 * gives it for those alone.
 */
export function ArrangementIds({ employerId }: { employerId: string }) {
  const schemes = useQuery({
    queryKey: ['schemes', 'list', { employerId }, 'all'],
    queryFn: () => fetchAllPages(apiRoutes.schemes.list, { query: { employerId } }),
  });
  if (!schemes.isSuccess) return null;
  const choices = arrangementChoices(schemes.data.items);
  return (
    <Table withTableBorder captionSide="top" maw={720}>
      <Table.Caption ta="left">
        What the Arrangement column holds: a scheme’s name as your payroll writes it (any case),{' '}
        {PRSA_ARRANGEMENT} for a PRSA paid through payroll, or nothing
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Scheme</Table.Th>
          <Table.Th>Type</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {choices.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={2}>
              <Text size="sm">This employer has no schemes.</Text>
            </Table.Td>
          </Table.Tr>
        )}
        {choices.map((scheme) => (
          <Table.Tr key={scheme.id}>
            <Table.Td>
              {scheme.name}
              {scheme.sharesName && (
                <Text size="xs" c="dimmed">
                  Another scheme has this name: enter this one’s id, <Code>{scheme.id}</Code>
                </Text>
              )}
            </Table.Td>
            <Table.Td>{scheme.type}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
