import { Anchor, Button, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import type { Broker } from '../../api/types';
import type { Column } from '../../components/CursorTable';
import { CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { NameFormModal } from '../../components/NameFormModal';
import { PageHeading } from '../../components/PageHeading';

const columns: Column<Broker>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (broker) => (
      <Anchor component={Link} to={`/brokers/${broker.id}`}>
        {broker.name}
      </Anchor>
    ),
    sortValue: (broker) => broker.name,
  },
  {
    key: 'createdAt',
    header: 'Created',
    render: (broker) => <DateTime value={broker.createdAt} />,
    sortValue: (broker) => broker.createdAt,
  },
];

/** `/brokers`: the broker firms (tenants) of the platform, for the platform's own staff. */
export function BrokersPage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="lg">
      <PageHeading title="Broker firms">
        <Button onClick={() => setCreating(true)}>New broker firm</Button>
      </PageHeading>
      <CursorTable
        queryKey={['brokers', 'list']}
        route={apiRoutes.brokers.list}
        columns={columns}
        caption="Broker firms"
        rowNoun="broker firm"
        empty="No broker firms yet."
        search={{ label: 'Search broker firms by name', text: (broker) => broker.name }}
      />
      <NameFormModal
        opened={creating}
        onClose={() => setCreating(false)}
        title="New broker firm"
        label="Firm name"
        submitLabel="Create broker firm"
        save={async (values) => {
          const broker = await api(apiRoutes.brokers.create, { body: values });
          await client.invalidateQueries({ queryKey: ['brokers'] });
          return broker;
        }}
        savedMessage={(values) => `Broker firm “${values.name.trim()}” created.`}
        // Its first accounts are made on its own page.
        onSaved={(broker) => navigate({ to: `/brokers/${broker.id}` })}
      />
    </Stack>
  );
}
