import { Alert, Badge, Button, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { MEMBER_PAGE_SIZES } from '../../../contracts/portal';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Fund, FundChoice, Member } from '../../api/types';
import { can, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { fetchAllPages } from '../../components/allPages';
import { type Column, CursorTable } from '../../components/CursorTable';
import { Loading } from '../../components/Loading';
import { formatDate, formatDateTime } from '../../format';
import { FundChoiceEditor } from './FundChoiceEditor';
import { fundChoicesKey, openFundsKey, refreshAfterFundChoice } from './member-page-cache';

/** The open funds of a scheme: a scheme offers a few funds, rarely more than 100. */
export async function loadOpenFunds(schemeId: string): Promise<Fund[]> {
  return (await fetchAllPages(apiRoutes.funds.listOfScheme, { params: { id: schemeId } })).items;
}

const describeAllocations = (choice: FundChoice) =>
  choice.allocations.map((line) => `${line.fundName} ${line.percent}%`).join(', ');

/** Today in Ireland, the day the API marks the choice in force by (docs/decisions/0050-irish-dates.md). */
const today = () => todayInIreland(new Date());

function ChoiceState({ choice }: { choice: FundChoice }) {
  if (choice.current) {
    return (
      <Badge color="green" variant="dot">
        Current
      </Badge>
    );
  }
  if (choice.effectiveFrom > today()) {
    return (
      <Badge color="blue" variant="dot">
        Scheduled
      </Badge>
    );
  }
  return (
    <Badge color="gray" variant="dot">
      Earlier
    </Badge>
  );
}

const historyColumns: Column<FundChoice>[] = [
  {
    key: 'effectiveFrom',
    header: 'Effective from',
    render: (choice) => formatDate(choice.effectiveFrom),
    sortValue: (choice) => choice.effectiveFrom,
  },
  { key: 'allocations', header: 'Funds', render: describeAllocations },
  { key: 'state', header: 'State', render: (choice) => <ChoiceState choice={choice} /> },
  {
    key: 'createdAt',
    header: 'Made',
    render: (choice) => formatDateTime(choice.createdAt),
    sortValue: (choice) => choice.createdAt,
  },
];

/**
 * How the member's contributions are invested: the choice in force today, any scheduled one, the
 * history, and a new choice for those the policy table lets make one (fund_choice.set).
 */
export function FundChoicesPanel({ member, changes }: { member: Member; changes: boolean }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const mayChoose = changes && can(session, 'fund_choice.set', memberRow(member));
  const recent = useQuery({
    queryKey: [...fundChoicesKey(member.id), 'recent'],
    queryFn: () =>
      api(apiRoutes.funds.choices, {
        params: { id: member.id },
        query: { limit: MEMBER_PAGE_SIZES.fundChoices },
      }),
    staleTime: SEEDED_FRESH_MS,
  });
  const funds = useQuery({
    queryKey: openFundsKey(member.schemeId),
    queryFn: () => loadOpenFunds(member.schemeId),
    enabled: mayChoose,
    staleTime: SEEDED_FRESH_MS,
  });
  const current = recent.data?.items.find((choice) => choice.current) ?? null;
  const scheduled =
    recent.data?.items.filter((choice) => !choice.current && choice.effectiveFrom > today()) ?? [];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>Fund choices</Title>
        {mayChoose && (
          <Button onClick={edit.open} disabled={!funds.data || funds.data.length === 0}>
            Change fund choice
          </Button>
        )}
      </Group>
      {mayChoose && funds.data?.length === 0 && (
        <Text c="dimmed">The scheme offers no open funds to choose from.</Text>
      )}
      {recent.isPending && <Loading label="Loading the fund choices" />}
      {recent.isError && <Alert color="red">{describeError(recent.error)}</Alert>}
      {recent.isSuccess && (
        <Paper withBorder p="md">
          {current ? (
            <Stack gap="xs">
              <Text fw={600}>In force since {formatDate(current.effectiveFrom)}</Text>
              <List>
                {current.allocations.map((line) => (
                  <List.Item key={line.fundId}>
                    {line.fundName}: {line.percent}%
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : (
            <Text>No fund choice is in force.</Text>
          )}
          {scheduled.map((choice) => (
            <Text key={choice.id} mt="xs">
              From {formatDate(choice.effectiveFrom)}: {describeAllocations(choice)}
            </Text>
          ))}
        </Paper>
      )}
      <CursorTable
        queryKey={[...fundChoicesKey(member.id), 'history']}
        route={apiRoutes.funds.choices}
        params={{ id: member.id }}
        query={{ limit: MEMBER_PAGE_SIZES.fundChoices }}
        staleTime={SEEDED_FRESH_MS}
        columns={historyColumns}
        caption="Every fund choice, newest first"
        empty="No fund choice has been made."
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={editing}
        onClose={edit.close}
        title="Change fund choice"
        size="lg"
        centered
      >
        {funds.data && (
          <FundChoiceEditor
            memberId={member.id}
            funds={funds.data}
            current={current}
            onSaved={async () => {
              edit.close();
              await refreshAfterFundChoice(client, member.id);
            }}
            onCancel={edit.close}
          />
        )}
      </Modal>
    </Stack>
  );
}
