import { Alert, Button, Group, List, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  DATA_REQUEST_KIND_NAMES,
  DATA_REQUEST_KIND_RIGHTS,
  DATA_REQUEST_KINDS,
  DATA_REQUEST_STATUS_NAMES,
  type DataRequestKind,
} from '../../../contracts/data-request-rules';
import { api } from '../../api/client';
import type { Member } from '../../api/types';
import { notifySuccess } from '../../components/notify';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { useApiSubmit } from '../../components/useApiSubmit';
import { formatDate } from '../../format';
import { DataRequestClockBadge } from '../data-requests/DataRequestClock';

const yourRequestsKey = (memberId: string) => ['data-requests', 'own', memberId] as const;

/**
 * "Your data" on a member's own page (docs/decisions/0137-data-subject-requests.md, "Later"):
 * their rights in plain words, a form to make a request, which reaches the firm the day it is
 * made (GDPR Art. 12(2) and 12(3)), and their requests with where each stands and its due day.
 */
export function YourDataPanel({ member }: { member: Member }) {
  const client = useQueryClient();
  const requests = useQuery({
    queryKey: yourRequestsKey(member.id),
    queryFn: () => api(apiRoutes.dataRequests.list, { query: { limit: 100 } }),
  });
  const form = useForm<{ kind: DataRequestKind | null }>({
    initialValues: { kind: null },
    validate: { kind: (value) => (value ? null : 'Choose what you are asking for') },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (values.kind === null) return;
    // No day is sent: the service takes today, in Ireland, as the day it was received.
    const made = await api(apiRoutes.dataRequests.create, {
      body: { memberId: member.id, kind: values.kind },
    });
    notifySuccess(
      `Your request reached the firm today: it is due to be answered by ${formatDate(made.dueOn)}.`,
    );
    form.reset();
    await client.invalidateQueries({ queryKey: yourRequestsKey(member.id) });
  });

  return (
    <Stack gap="sm" component="section" aria-labelledby="your-data">
      <Title order={3} id="your-data">
        Your data
      </Title>
      <Text>
        The law gives you these rights over the data your scheme holds about you. A request you make
        here reaches the firm that runs your scheme today, and it answers within one month.
      </Text>
      <List spacing={4}>
        {DATA_REQUEST_KINDS.map((kind) => (
          <List.Item key={kind}>{DATA_REQUEST_KIND_RIGHTS[kind]}</List.Item>
        ))}
      </List>
      <form onSubmit={submit} noValidate aria-label="Make a request about your data">
        <Stack gap="sm" maw={480}>
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
          <Select
            label="What you are asking for"
            required
            data={DATA_REQUEST_KINDS.map((value) => ({
              value,
              label: DATA_REQUEST_KIND_NAMES[value],
            }))}
            {...form.getInputProps('kind')}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Make request
            </Button>
          </Group>
        </Stack>
      </form>
      <QueryPanel
        query={requests}
        loading="Loading your requests"
        isEmpty={(data) => data.items.length === 0}
        empty="You have made no request about your data."
      >
        {(data) => (
          <ScrollTable minWidth={560} label="Your requests about your data">
            <Table>
              <Table.Caption>Your requests about your data, the earliest due first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>What you asked for</Table.Th>
                  <Table.Th>Received</Table.Th>
                  <Table.Th>Due by</Table.Th>
                  <Table.Th>Where it stands</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((request) => (
                  <Table.Tr key={request.id}>
                    <Table.Td>{DATA_REQUEST_KIND_NAMES[request.kind]}</Table.Td>
                    <Table.Td>{formatDate(request.receivedOn)}</Table.Td>
                    <Table.Td>{formatDate(request.dueOn)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        <Text span>{DATA_REQUEST_STATUS_NAMES[request.status]}</Text>
                        <DataRequestClockBadge clock={request.clock} />
                      </Group>
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
