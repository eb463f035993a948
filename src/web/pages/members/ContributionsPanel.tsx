import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  CONTRIBUTION_KIND_LABELS,
  CONTRIBUTION_KINDS,
  contributionKindLabels,
  contributionKindRank,
  correctionNotes,
} from '../../../contracts/contributions';
import { todayInIreland } from '../../../contracts/irish-dates';
import { euroFieldError, formatCents, readEuro } from '../../../contracts/money';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import { MEMBER_PAGE_SIZES } from '../../../contracts/portal';
import { api } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Contribution, ContributionKind, Member } from '../../api/types';
import { can, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { showApiErrors } from '../../components/forms';
import { Loading } from '../../components/Loading';
import {
  PayPeriodInput,
  payPeriodEntry,
  payPeriodRule,
  readPayPeriod,
} from '../../components/PayPeriodInput';
import { formatDate, formatPeriod } from '../../format';
import { memberContributionsKey, refreshAfterContribution } from './member-page-cache';

/** The chart library is large: it loads with the chart, not with the first page. */
const ContributionsChart = lazy(() =>
  import('./ContributionsChart').then((module) => ({ default: module.ContributionsChart })),
);

const KIND_OPTIONS = CONTRIBUTION_KINDS.map((kind) => ({
  value: kind,
  label: CONTRIBUTION_KIND_LABELS[kind],
}));

/** A correction is the one amount typed with a sign: "-25.50" or "−25.50" (docs/decisions/0100-one-money-rule.md). */
const SIGNED = { negative: 'allowed' } as const;

function signedCents(cents: number): string {
  return cents < 0 ? `−${formatCents(-cents)}` : `+${formatCents(cents)}`;
}

/**
 * A member's contributions: the monthly totals by kind as a chart, and every contribution as a
 * table, newest period first and within it in `compareContributions`' order, 25 at a time. Staff
 * read the amount it was first recorded as and its corrections; those who submit payroll add
 * contributions and correct them with adjustments; amounts are never edited. A member reading
 * their own is told in their words: the month, who paid, the amount, and on a corrected row only
 * what it was corrected from and when (its reason is a staff note); how a contribution reached the
 * record is staff's business and not shown to them.
 */
export function ContributionsPanel({ member, changes }: { member: Member; changes: boolean }) {
  const session = useSignedIn();
  // Worded for the member when it is their own record they read.
  const ownRecord = session.account.memberId === member.id;
  const client = useQueryClient();
  const [adding, add] = useDisclosure(false);
  const [adjusting, setAdjusting] = useState<Contribution | null>(null);
  const refresh = () => refreshAfterContribution(client, member.id);

  const kindLabels = contributionKindLabels(ownRecord);
  const columns: Column<Contribution>[] = ownRecord
    ? // A member reads the month, who paid and the amount; a corrected amount says beneath it
      // what it was corrected from and when, in words (correctionNotes), and no other row
      // speaks of corrections.
      [
        {
          key: 'period',
          header: 'Month',
          render: (row) => formatPeriod(row.period),
          sortValue: (row) => row.period,
        },
        {
          key: 'kind',
          header: 'Paid by',
          render: (row) => kindLabels[row.kind],
          sortValue: (row) => contributionKindRank(row.kind),
        },
        {
          key: 'amount',
          header: 'Amount',
          render: (row) => {
            const notes = correctionNotes(row);
            if (notes.length === 0) return formatCents(row.amountCents);
            return (
              <Stack gap={2}>
                <Text size="sm">{formatCents(row.amountCents)}</Text>
                {notes.map((note, index) => (
                  <Text size="xs" c="dimmed" key={row.adjustments[index]?.id ?? note}>
                    {note}
                  </Text>
                ))}
              </Stack>
            );
          },
          sortValue: (row) => row.amountCents,
        },
      ]
    : [
        {
          key: 'period',
          header: 'Pay period',
          render: (row) => formatPeriod(row.period),
          sortValue: (row) => row.period,
        },
        {
          key: 'kind',
          header: 'Kind',
          render: (row) => kindLabels[row.kind],
          sortValue: (row) => contributionKindRank(row.kind),
        },
        {
          key: 'amount',
          header: 'Amount',
          render: (row) => formatCents(row.amountCents),
          sortValue: (row) => row.amountCents,
        },
        {
          key: 'original',
          header: 'First recorded as',
          render: (row) => formatCents(row.originalAmountCents),
          sortValue: (row) => row.originalAmountCents,
        },
        {
          key: 'adjustments',
          header: 'Corrections',
          render: (row) =>
            row.adjustments.length === 0 ? (
              'None'
            ) : (
              <Stack gap={2}>
                {row.adjustments.map((adjustment) => (
                  <Text size="sm" key={adjustment.id}>
                    {signedCents(adjustment.deltaCents)} on {formatDate(adjustment.createdAt)}
                    {adjustment.reason ? `: ${adjustment.reason}` : ''}
                  </Text>
                ))}
              </Stack>
            ),
        },
      ];
  if (!ownRecord) {
    columns.push({
      key: 'source',
      header: 'Recorded from',
      render: (row) => (row.importId ? 'A payroll file' : 'Typed in'),
    });
  }
  if (changes && can(session, 'contribution.adjust', memberRow(member))) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (row) => (
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => setAdjusting(row)}
          aria-label={`Adjust the ${CONTRIBUTION_KIND_LABELS[row.kind].toLowerCase()} contribution of ${formatPeriod(row.period)}`}
        >
          Adjust
        </Button>
      ),
    });
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>Contributions</Title>
        {changes && can(session, 'contribution.create', memberRow(member)) && (
          <Button onClick={add.open}>Add contribution</Button>
        )}
      </Group>
      <Paper withBorder p="md">
        <Suspense fallback={<Loading label="Loading the chart" />}>
          <ContributionsChart
            memberId={member.id}
            joinedOn={member.dateJoined}
            ownRecord={ownRecord}
          />
        </Suspense>
      </Paper>
      <CursorTable
        queryKey={[...memberContributionsKey(member.id), 'table']}
        route={apiRoutes.contributions.listOfMember}
        params={{ id: member.id }}
        query={{ limit: MEMBER_PAGE_SIZES.contributions }}
        staleTime={SEEDED_FRESH_MS}
        columns={columns}
        // A member's three columns fit a phone's screen; staff's five scroll on one.
        minWidth={ownRecord ? 340 : 600}
        caption="Contributions, newest pay period first"
        empty="No contributions have been recorded."
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={adding}
        onClose={add.close}
        title="Add contribution"
        centered
      >
        <AddContributionForm
          member={member}
          onDone={async () => {
            add.close();
            await refresh();
          }}
          onCancel={add.close}
        />
      </Modal>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={adjusting !== null}
        onClose={() => setAdjusting(null)}
        title="Adjust contribution"
        centered
      >
        {adjusting && (
          <AdjustmentForm
            contribution={adjusting}
            onDone={async () => {
              setAdjusting(null);
              await refresh();
            }}
            onCancel={() => setAdjusting(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

function AddContributionForm({
  member,
  onDone,
  onCancel,
}: {
  member: Member;
  onDone: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      // This month in Ireland, not in UTC (docs/decisions/0050-irish-dates.md), as it is typed.
      period: payPeriodEntry(todayInIreland(new Date()).slice(0, 7)),
      kind: 'employee' as ContributionKind,
      amountCents: '',
    },
    validate: {
      period: payPeriodRule,
      amountCents: (value) => euroFieldError(value),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    // The form's rule has shown why an amount is not read; nothing is sent.
    const amount = readEuro(values.amountCents);
    const period = readPayPeriod(values.period);
    if (!amount.ok || period === null) return;
    try {
      await api(apiRoutes.contributions.create, {
        params: { id: member.id },
        body: { period, kind: values.kind, amountCents: amount.cents },
      });
      notifications.show({ color: 'green', message: 'Contribution recorded' });
      await onDone();
    } catch (error) {
      setProblem(showApiErrors(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <PayPeriodInput required {...form.getInputProps('period')} />
        <Select
          label="Kind"
          data={KIND_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps('kind')}
        />
        <TextInput
          label="Amount (€)"
          inputMode="decimal"
          placeholder="250.00"
          required
          {...form.getInputProps('amountCents')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Add contribution
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AdjustmentForm({
  contribution,
  onDone,
  onCancel,
}: {
  contribution: Contribution;
  onDone: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { deltaCents: '', reason: '' },
    validate: {
      deltaCents: (value) => euroFieldError(value, SIGNED),
      reason: (value) => (value.trim() === '' ? FIELD_MESSAGES.reason : null),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    const delta = readEuro(values.deltaCents, SIGNED);
    if (!delta.ok) return;
    try {
      await api(apiRoutes.contributions.adjust, {
        params: { id: contribution.id },
        body: { deltaCents: delta.cents, reason: values.reason },
      });
      notifications.show({ color: 'green', message: 'Adjustment recorded' });
      await onDone();
    } catch (error) {
      setProblem(showApiErrors(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text>
          {CONTRIBUTION_KIND_LABELS[contribution.kind]} contribution of{' '}
          {formatPeriod(contribution.period)}: {formatCents(contribution.amountCents)} now
          (originally {formatCents(contribution.originalAmountCents)}). The recorded amount stays;
          the adjustment is added to it and recorded in the audit log.
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label="Change (€)"
          inputMode="decimal"
          description="A minus sign reduces the amount, e.g. -25.00"
          required
          data-autofocus
          {...form.getInputProps('deltaCents')}
        />
        <Textarea
          label="Reason"
          required
          autosize
          minRows={2}
          maxLength={500}
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Record adjustment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
