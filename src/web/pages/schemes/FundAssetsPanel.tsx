import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatCents } from '../../../contracts/money';
import { api, describeError } from '../../api/client';
import type { Scheme } from '../../api/types';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate } from '../../format';

export const fundAssetsKey = (schemeId: string) => ['schemes', schemeId, 'fund-assets'] as const;

/**
 * The trustees' view of a DC scheme's money today: the units all members hold in each fund, at
 * its latest price, how many members hold it, and the money waiting to be invested or between
 * funds (docs/decisions/0127-dc-money.md).
 */
export function FundAssetsPanel({ scheme }: { scheme: Scheme }) {
  const assets = useQuery({
    queryKey: fundAssetsKey(scheme.id),
    queryFn: () => api(apiRoutes.holdings.fundAssets, { params: { id: scheme.id }, query: {} }),
  });
  return (
    <Stack gap="sm" component="section" aria-label="What the members hold">
      <Title order={3}>What the members hold</Title>
      {assets.isPending && <Loading label="Loading what the members hold" />}
      {assets.isError && (
        <Alert color="red" role="alert">
          {describeError(assets.error)}
        </Alert>
      )}
      {assets.isSuccess && (
        <>
          <Text>
            On {formatDate(assets.data.on)} the scheme’s members’ money is worth{' '}
            <strong>{formatCents(assets.data.totalCents)}</strong> in all, at each fund’s latest
            price.
          </Text>
          <ScrollTable minWidth={560} label="Units held in each fund, by all members">
            <Table striped>
              <Table.Caption>Units held in each fund, by all members</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fund</Table.Th>
                  <Table.Th ta="right">Members</Table.Th>
                  <Table.Th ta="right">Units</Table.Th>
                  <Table.Th ta="right">Unit price</Table.Th>
                  <Table.Th>Price of</Table.Th>
                  <Table.Th ta="right">Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {assets.data.funds.map((fund) => (
                  <Table.Tr key={fund.fundId}>
                    <Table.Td>{fund.fundName}</Table.Td>
                    <Table.Td ta="right">{fund.members.toLocaleString('en-IE')}</Table.Td>
                    <Table.Td ta="right">{fund.units}</Table.Td>
                    <Table.Td ta="right">€{fund.price}</Table.Td>
                    <Table.Td>{formatDate(fund.priceOn)}</Table.Td>
                    <Table.Td ta="right">{formatCents(fund.valueCents)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td colSpan={5}>Received, waiting to be invested</Table.Td>
                  <Table.Td ta="right">{formatCents(assets.data.uninvestedCents)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td colSpan={5}>Between funds while switches are carried out</Table.Td>
                  <Table.Td ta="right">{formatCents(assets.data.switchingCents)}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th scope="row" colSpan={5}>
                    Total
                  </Table.Th>
                  <Table.Td ta="right" fw={700}>
                    {formatCents(assets.data.totalCents)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </ScrollTable>
        </>
      )}
    </Stack>
  );
}
