import { Anchor, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { Overview } from '../../api/types';
import { ScrollTable } from '../../components/ScrollTable';
import { schemeNeedText } from './attention';

/** The schemes with work waiting, each with what it needs and a link to it. */
export function SchemesNeedingAttention({
  overview,
  withEmployer,
}: {
  overview: Overview;
  withEmployer: boolean;
}) {
  const waiting = overview.schemes.filter((scheme) => scheme.needs.length > 0);
  return (
    <Stack gap="sm" component="section" aria-labelledby="schemes-attention">
      <Title order={3} id="schemes-attention">
        Schemes that need attention
      </Title>
      {waiting.length === 0 ? (
        <Text>Every scheme is up to date.</Text>
      ) : (
        <ScrollTable minWidth={480} label="Schemes that need attention">
          <Table striped>
            <Table.Caption>Schemes that need attention, and why</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Scheme</Table.Th>
                {withEmployer && <Table.Th>Employer</Table.Th>}
                <Table.Th>Members</Table.Th>
                <Table.Th>What it needs</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {waiting.map((scheme) => (
                <Table.Tr key={scheme.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/schemes/${scheme.id}`}>
                      {scheme.name}
                    </Anchor>
                  </Table.Td>
                  {withEmployer && <Table.Td>{scheme.employerName}</Table.Td>}
                  <Table.Td>{scheme.memberCount}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      {scheme.needs.map((need) => (
                        <Badge key={need} color="orange" variant="dot" miw="max-content">
                          {schemeNeedText(need, scheme, overview.duePeriod)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
