import { Code, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { arrangementKey, PRSA_ARRANGEMENT } from '../../../contracts/auto-enrolment';
import { fetchAllPages } from '../../components/allPages';

/**
 * What the Arrangement column of a payroll file may hold for this employer: the name of one of its
 * schemes as the payroll writes it, whatever its case, or the scheme's id, or PRSA (docs/imports.md,
 * "Payroll"). Where two schemes share a name (compared as the service compares them,
 * `arrangementKey`), only the id tells them apart, and the table says so.
 */
export function ArrangementIds({ employerId }: { employerId: string }) {
  const schemes = useQuery({
    queryKey: ['schemes', 'list', { employerId }, 'all'],
    queryFn: () => fetchAllPages(apiRoutes.schemes.list, { query: { employerId } }),
  });
  if (!schemes.isSuccess) return null;
  const named = new Map<string, number>();
  for (const scheme of schemes.data.items) {
    const key = arrangementKey(scheme.name);
    named.set(key, (named.get(key) ?? 0) + 1);
  }
  return (
    <Table withTableBorder captionSide="top" maw={720}>
      <Table.Caption ta="left">
        What the Arrangement column holds: a scheme’s name as your payroll writes it (any case) or
        its id, {PRSA_ARRANGEMENT} for a PRSA paid through payroll, or nothing
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Scheme</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Or its id</Table.Th>
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
            <Table.Td>
              {scheme.name}
              {(named.get(arrangementKey(scheme.name)) ?? 0) > 1 && (
                <Text size="xs" c="dimmed">
                  Another scheme has this name: enter the id
                </Text>
              )}
            </Table.Td>
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
