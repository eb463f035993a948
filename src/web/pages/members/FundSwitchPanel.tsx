import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { MEMBER_PAGE_SIZES } from '../../../contracts/portal';
import { api } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Fund, FundSwitch, Member } from '../../api/types';
import { can, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { showApiErrors } from '../../components/forms';
import { formatDate } from '../../format';
import { loadOpenFunds } from './FundChoicesPanel';
import { type FundPercents, FundPercentsTable, percentLinesOf, totalOf } from './FundPercentsTable';
import {
  holdingsQuery,
  memberMoneyKey,
  openFundsKey,
  recentSwitchesKey,
  switchesKey,
} from './member-page-cache';

const describeTargets = (switched: FundSwitch) =>
  switched.to.map((line) => `${line.fundName} ${line.percent}%`).join(', ');

const columns: Column<FundSwitch>[] = [
  {
    key: 'requestedOn',
    header: 'Asked for',
    render: (switched) => formatDate(switched.requestedOn),
    sortValue: (switched) => switched.requestedOn,
  },
  { key: 'to', header: 'Into', render: describeTargets },
  {
    key: 'completedOn',
    header: 'Completed',
    render: (switched) =>
      switched.completedOn === null ? 'Under way' : formatDate(switched.completedOn),
  },
];

function SwitchEditor({
  member,
  funds,
  onDone,
  onCancel,
}: {
  member: Member;
  funds: Fund[];
  onDone: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ percents: FundPercents }>({
    mode: 'controlled',
    initialValues: { percents: Object.fromEntries(funds.map((fund) => [fund.id, ''])) },
  });
  const total = totalOf(funds, form.values.percents);
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await api(apiRoutes.switches.request, {
        params: { id: member.id },
        body: { to: percentLinesOf(funds, values.percents) },
      });
      notifications.show({ color: 'green', message: 'Switch asked for' });
      await onDone();
    } catch (error) {
      setProblem(showApiErrors(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Everything held now is sold at each fund’s next price, and the money bought into the funds
          chosen here at their prices after that. Future contributions still follow the fund choice.
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <FundPercentsTable
          form={form}
          funds={funds}
          caption="Whole percentages of what is held, adding up to 100."
          testId="switch-total"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={total !== 100} loading={form.submitting}>
            Switch funds
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Moving what the member holds into other funds of the scheme (docs/decisions/0127-dc-money.md):
 * the switch under way, if any, and the ones before; a new switch for whoever the policy table
 * lets ask for one (fund_switch.request), one at a time.
 */
export function FundSwitchPanel({
  member,
  own,
  changes,
}: {
  member: Member;
  own: boolean;
  /** False beneath a wound-up scheme: no switch is offered. */
  changes: boolean;
}) {
  const session = useSignedIn();
  const client = useQueryClient();
  const [editing, edit] = useDisclosure(false);
  const maySwitch = changes && can(session, 'fund_switch.request', memberRow(member));
  const recent = useQuery({
    queryKey: recentSwitchesKey(member.id),
    queryFn: () =>
      api(apiRoutes.switches.listOfMember, {
        params: { id: member.id },
        query: { limit: MEMBER_PAGE_SIZES.switches },
      }),
    staleTime: SEEDED_FRESH_MS,
  });
  const funds = useQuery({
    queryKey: openFundsKey(member.schemeId),
    queryFn: () => loadOpenFunds(member.schemeId),
    enabled: maySwitch,
    staleTime: SEEDED_FRESH_MS,
  });
  // The holdings the value panel reads, handed over by the page's answer: with no units held
  // there is nothing a switch could sell, and money waiting follows the fund choice.
  const holdings = useQuery({ ...holdingsQuery(member.id), enabled: maySwitch });
  const holdsNothing = holdings.data !== undefined && holdings.data.funds.length === 0;
  const pending = recent.data?.items.find((switched) => switched.status === 'pending');
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>{own ? 'Switch your funds' : 'Fund switches'}</Title>
        {maySwitch && (
          <Button
            onClick={edit.open}
            disabled={
              pending !== undefined || holdsNothing || !funds.data || funds.data.length === 0
            }
          >
            Switch funds
          </Button>
        )}
      </Group>
      {maySwitch && holdsNothing && !pending && (
        <Text size="sm">
          {own
            ? 'You hold nothing in the funds yet, so there is nothing to switch. Money waiting to be invested goes into the funds of your fund choice.'
            : 'Nothing is held in the funds yet, so there is nothing to switch. Money waiting to be invested goes into the funds of the fund choice.'}
        </Text>
      )}
      {pending && (
        <Paper withBorder p="md" role="status">
          <Text fw={600}>A switch is under way</Text>
          <Text>
            Into {describeTargets(pending)}, asked for on {formatDate(pending.requestedOn)}. Another
            can be asked for once it is complete: it is carried out once the funds’ prices after
            that day are in.
          </Text>
        </Paper>
      )}
      <CursorTable
        queryKey={switchesKey(member.id)}
        route={apiRoutes.switches.listOfMember}
        params={{ id: member.id }}
        query={{ limit: MEMBER_PAGE_SIZES.switches }}
        staleTime={SEEDED_FRESH_MS}
        columns={columns}
        caption="Every switch, newest first"
        empty="No switch has been asked for."
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={editing}
        onClose={edit.close}
        title="Switch funds"
        size="lg"
        centered
      >
        {funds.data && (
          <SwitchEditor
            member={member}
            funds={funds.data}
            onDone={async () => {
              edit.close();
              await client.invalidateQueries({ queryKey: memberMoneyKey(member.id) });
            }}
            onCancel={edit.close}
          />
        )}
      </Modal>
    </Stack>
  );
}
