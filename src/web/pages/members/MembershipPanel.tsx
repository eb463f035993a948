import { Alert, Badge, Button, DataList, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  type LifecycleView,
  PAYOUT_KIND_NAMES,
  PAYOUT_STATUS_NAMES,
  type PayoutView,
} from '../../../contracts/member-lifecycle';
import { STATUS_CHANGE_NAMES } from '../../../contracts/member-lifecycle-rules';
import { MEMBER_STATUS_NAMES } from '../../../contracts/members';
import { formatCents } from '../../../contracts/money';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Member } from '../../api/types';
import { can, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate, formatDateTime, formatOptionalDate } from '../../format';
import { LeavingOptions } from './LeavingOptions';
import { LifecycleDialog, STEP_TITLES } from './LifecycleDialogs';
import { type LifecycleStep, type May, newestFirst, stepsOffered } from './lifecycle-steps';
import { MemberStatusBadge } from './MemberStatusBadge';
import { lifecycleKey } from './member-page-cache';

/** What a change says beyond its kind: where a transfer went, why a correction was made. */
function detailOf(
  change: LifecycleView['history'][number],
  history: LifecycleView['history'],
): string {
  if (change.kind === 'corrected') {
    const undone = history.find((one) => one.id === change.correctsId);
    const what = undone
      ? `Undid “${STATUS_CHANGE_NAMES[undone.kind]}” of ${formatDate(undone.on)}`
      : 'Undid a change';
    return change.reason ? `${what}: ${change.reason}` : what;
  }
  if (change.receivingArrangement) return `To ${change.receivingArrangement}`;
  return change.reason ?? '';
}

function HistoryTable({ history }: { history: LifecycleView['history'] }) {
  if (history.length === 0) {
    return <Text c="dimmed">No change of status has been recorded since joining.</Text>;
  }
  return (
    <ScrollTable minWidth={640} label="Changes of status">
      <Table striped>
        <Table.Caption>Changes of status, newest first</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>Status after</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th>Recorded</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {newestFirst(history).map((change) => (
            <Table.Tr key={change.id}>
              <Table.Td>{formatDate(change.on)}</Table.Td>
              <Table.Td>
                <Group gap="xs">
                  <span>{STATUS_CHANGE_NAMES[change.kind]}</span>
                  {change.corrected && (
                    <Badge color="gray" variant="outline">
                      Undone
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{MEMBER_STATUS_NAMES[change.toStatus]}</Table.Td>
              <Table.Td>{detailOf(change, history)}</Table.Td>
              <Table.Td>{formatDateTime(change.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** A refund's parts in one line: contributions, tax, what is paid. */
const refundLine = (refund: NonNullable<PayoutView['refund']>) =>
  `Own contributions ${formatCents(refund.ownContributionsCents)}; refunded before tax ${formatCents(refund.grossCents)}; tax ${formatCents(refund.taxCents)}; paid ${formatCents(refund.netCents)}`;

function PayoutsTable({ payouts }: { payouts: readonly PayoutView[] }) {
  return (
    <ScrollTable minWidth={720} label="Payouts">
      <Table striped>
        <Table.Caption>Payouts</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Payout</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>Standing</Table.Th>
            <Table.Th ta="right">Value on the day</Table.Th>
            <Table.Th ta="right">Paid</Table.Th>
            <Table.Th>Paid on</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payouts.map((payout) => (
            <Table.Tr key={payout.id}>
              <Table.Td>
                <Text size="sm">{PAYOUT_KIND_NAMES[payout.kind]}</Text>
                {payout.refund && (
                  <Text size="xs" c="dimmed">
                    {refundLine(payout.refund)}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{formatDate(payout.fromOn)}</Table.Td>
              <Table.Td>{PAYOUT_STATUS_NAMES[payout.status]}</Table.Td>
              <Table.Td ta="right">
                {payout.valueAtDateCents === null ? '—' : formatCents(payout.valueAtDateCents)}
              </Table.Td>
              <Table.Td ta="right">
                {payout.paidCents === null ? '—' : formatCents(payout.paidCents)}
              </Table.Td>
              <Table.Td>{formatOptionalDate(payout.paidOn)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function DependantsTable({ dependants }: { dependants: NonNullable<LifecycleView['dependants']> }) {
  return (
    <ScrollTable minWidth={640} label="Dependants to contact">
      <Table striped>
        <Table.Caption>Dependants to contact about the death benefits</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Relationship</Table.Th>
            <Table.Th>Phone</Table.Th>
            <Table.Th>E-mail address</Table.Th>
            <Table.Th>Postal address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dependants.map((dependant) => (
            <Table.Tr key={dependant.id}>
              <Table.Td>{dependant.name}</Table.Td>
              <Table.Td>{dependant.relationship}</Table.Td>
              <Table.Td>{dependant.phone ?? '—'}</Table.Td>
              <Table.Td>{dependant.email ?? '—'}</Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-line' }}>{dependant.address ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/**
 * A member's membership (docs/decisions/0135-members-lifecycle.md): their status and its day, their
 * qualifying service, what a leaver may do; for the firm's and the employer's staff, the history
 * of changes, the payouts and the dependants, and the steps their role may take where the status
 * allows them. A member reads their own, and changes nothing.
 */
export function MembershipPanel({
  member,
  schemeType,
  changes,
}: {
  member: Member;
  schemeType: string;
  /** False beneath a wound-up scheme: no step is offered. */
  changes: boolean;
}) {
  const headingId = useId();
  const session = useSignedIn();
  const own = session.account.memberId === member.id;
  const row = memberRow(member);
  const may: May = (action) => can(session, action, row);
  const [step, setStep] = useState<LifecycleStep | null>(null);
  const lifecycle = useQuery({
    queryKey: lifecycleKey(member.id),
    queryFn: () => api(apiRoutes.lifecycle.read, { params: { id: member.id } }),
    staleTime: SEEDED_FRESH_MS,
  });
  if (lifecycle.isPending) return <Loading label="Loading the membership" />;
  if (lifecycle.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(lifecycle.error)}
      </Alert>
    );
  }
  const data = lifecycle.data;
  const steps = own || !changes ? [] : stepsOffered(data, may);
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Group justify="space-between">
        <Title order={3} id={headingId}>
          {own ? 'Your membership' : 'Membership'}
        </Title>
        {steps.length > 0 && (
          <Group gap="xs">
            {steps.map((offered) => (
              <Button
                key={offered}
                variant={offered === 'undo' ? 'light' : 'default'}
                color={offered === 'undo' ? 'red' : undefined}
                onClick={() => setStep(offered)}
              >
                {STEP_TITLES[offered]}
              </Button>
            ))}
          </Group>
        )}
      </Group>
      <DataList labelWidth="10rem">
        <DataList.Item>
          <DataList.ItemLabel>Status</DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="xs" data-testid="membership-status">
              <MemberStatusBadge status={data.status} />
              <span>
                {data.statusOn === null
                  ? `since joining on ${formatDate(member.dateJoined)}`
                  : `since ${formatDate(data.statusOn)}`}
              </span>
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Qualifying service</DataList.ItemLabel>
          <DataList.ItemValue data-testid="qualifying-service">
            {data.qualifyingService.inWords}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList>
      {data.leaving && (
        <LeavingOptions
          member={member}
          leaving={data.leaving}
          own={own}
          mayDownload={may('member.leaving_statement.read')}
        />
      )}
      {!own && (
        <>
          <Title order={4}>History</Title>
          <HistoryTable history={data.history} />
          {data.payouts.length > 0 && (
            <>
              <Title order={4}>Payouts</Title>
              <PayoutsTable payouts={data.payouts} />
            </>
          )}
          {data.dependants !== null && data.dependants.length > 0 && (
            <>
              <Title order={4}>Dependants</Title>
              <DependantsTable dependants={data.dependants} />
            </>
          )}
        </>
      )}
      <LifecycleDialog
        step={step}
        member={member}
        lifecycle={data}
        schemeType={schemeType}
        may={may}
        onClose={() => setStep(null)}
      />
    </Stack>
  );
}
