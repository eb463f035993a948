import { Button, Stack, Table } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { ROLE_NAMES } from '../../../contracts/roles';
import { api } from '../../api/client';
import { accountColumns } from '../../components/accountColumns';
import { CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { NameFormModal } from '../../components/NameFormModal';
import { NewAccountButton } from '../../components/NewAccountButton';
import { PageHeading } from '../../components/PageHeading';

const brokerKey = (brokerId: string) => ['brokers', brokerId] as const;

/** `/brokers/$brokerId`: one broker firm for SuperAdmin: its name and its firm-level accounts. */
export function BrokerPage() {
  const { brokerId = '' } = useParams({ strict: false });
  const client = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const broker = useQuery({
    queryKey: brokerKey(brokerId),
    queryFn: () => api(apiRoutes.brokers.get, { params: { brokerId } }),
  });
  if (broker.isPending) return <Loading label="Loading the broker firm" />;
  if (broker.isError) return <LoadError error={broker.error} />;
  const { data } = broker;
  return (
    <Stack gap="xl">
      <Stack gap="md">
        <PageHeading title={data.name}>
          <Button variant="default" onClick={() => setRenaming(true)}>
            Rename broker firm
          </Button>
        </PageHeading>
        <Table variant="vertical" withTableBorder maw={560}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>Created</Table.Th>
              <Table.Td>
                <DateTime value={data.createdAt} />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="broker-accounts">
        <PageHeading order={3} id="broker-accounts" title="Accounts">
          <NewAccountButton
            target={{ route: apiRoutes.brokers.createUser, params: { brokerId: data.id } }}
            choosePassword
          />
        </PageHeading>
        <CursorTable
          queryKey={['accounts', 'broker', data.id]}
          route={apiRoutes.brokers.listUsers}
          params={{ brokerId: data.id }}
          columns={accountColumns({ withStatusAction: true })}
          caption={`Accounts of ${data.name}`}
          empty={`This firm has no accounts yet: create its first ${ROLE_NAMES.BrokerAdmin.toLowerCase()} here.`}
        />
      </Stack>
      <NameFormModal
        opened={renaming}
        onClose={() => setRenaming(false)}
        title="Rename broker firm"
        label="Firm name"
        submitLabel="Save name"
        initialName={data.name}
        save={async (values) => {
          const renamed = await api(apiRoutes.brokers.update, {
            params: { brokerId: data.id },
            body: values,
          });
          client.setQueryData(brokerKey(data.id), renamed);
          await client.invalidateQueries({ queryKey: ['brokers', 'list'] });
          return renamed;
        }}
        savedMessage={(values) => `Broker firm renamed to “${values.name.trim()}”.`}
      />
    </Stack>
  );
}
