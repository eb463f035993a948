import { Badge, Button, Group, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { euroFieldError, formatCents, readEuro } from '../../../contracts/money';
import {
  addToMonth,
  firstDayOf,
  monthOfDay,
  monthsBetween,
  REMITTANCE_DAYS_AFTER_MONTH,
  REMITTANCE_RULES,
  REMITTANCE_STATUS_LABELS,
  type RemittanceStatus,
  remittanceDueOn,
} from '../../../contracts/remittance-rules';
import { DEFAULT_REMITTANCE_MONTHS, remittanceReceiptVoid } from '../../../contracts/remittances';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import type { Employer, RemittanceMonth, RemittanceReceipt } from '../../api/types';
import { can, employerRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import {
  PayPeriodInput,
  payPeriodEntry,
  payPeriodRule,
  readPayPeriod,
} from '../../components/PayPeriodInput';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatDate, formatPeriod } from '../../format';
import { FormModal, FormShell } from '../governance/GovernanceForm';
import { GOVERNANCE_KEY } from '../governance/governanceQueries';
import {
  calendarFrom,
  remittanceCalendarQuery,
  remittanceKey,
  thisMonth,
} from './remittanceQueries';

/**
 * The colour of each standing, always beside its words (REMITTANCE_STATUS_LABELS). Keyed by the
 * rule module's own type, so a standing added there fails the build here until it has its colour.
 */
const STATUS_COLOURS: Record<RemittanceStatus, string> = {
  on_time: 'green',
  late: 'orange',
  due: 'blue',
  missing: 'red',
  not_chased: 'gray',
};

/** A month's standing as a word beside a coloured dot: the colour is never the only sign. */
export function RemittanceStatusBadge({ status }: { status: RemittanceStatus }) {
  return (
    <Badge color={STATUS_COLOURS[status]} variant="dot" miw="max-content">
      {REMITTANCE_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * The employer's remittance calendar (docs/decisions/0136-contribution-remittance.md): twelve months,
 * each with what payroll says was deducted, what was received and when, the day it is due and how
 * it stands; the payments received, each removable with a reason; and a form to record one.
 */
export function RemittanceCalendar({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  const latest = thisMonth();
  const [to, setTo] = useState(latest);
  const from = calendarFrom(to);
  const [recording, setRecording] = useState(false);
  const calendar = useQuery(remittanceCalendarQuery(employer.id, to));
  const mayRecord = can(session, 'remittance_receipt.create', employerRow(employer));
  return (
    <Stack gap="sm" component="section" aria-labelledby="employer-remittance">
      <PageHeading order={3} id="employer-remittance" title="Remittance calendar">
        {mayRecord && (
          <Button variant="light" onClick={() => setRecording(true)}>
            Record a payment received
          </Button>
        )}
      </PageHeading>
      <Text size="sm">
        What the employer deducted from pay, and its own contributions to a defined contribution
        scheme, reach the scheme within {REMITTANCE_DAYS_AFTER_MONTH} days after the end of the
        month ({sourceInWords(REMITTANCE_RULES.remittance)}).
      </Text>
      {/* The service's own rules, labelled once as its policy rather than each as a citation. */}
      <Text size="sm">
        How this service counts (its own policy, not the law):{' '}
        {REMITTANCE_RULES.whatIsDeducted.citation}. {REMITTANCE_RULES.monthsSinceAdded.citation}.
      </Text>
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => setTo(addToMonth(to, -DEFAULT_REMITTANCE_MONTHS))}
        >
          Earlier months
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          disabled={to >= latest}
          onClick={() => setTo(addToMonth(to, DEFAULT_REMITTANCE_MONTHS))}
        >
          Later months
        </Button>
        <Text size="sm" c="dimmed">
          {formatPeriod(from)} to {formatPeriod(to)}
        </Text>
      </Group>
      <QueryPanel query={calendar} loading="Loading the remittance calendar">
        {(data) => (
          <>
            <Text size="sm">
              {data.chasedFrom === null
                ? 'No month is chased: the employer has no scheme on this service.'
                : `Months are chased from ${formatPeriod(data.chasedFrom)}, when the employer’s first scheme was added to this service.`}
            </Text>
            <MonthsTable from={from} to={to} months={data.items} />
          </>
        )}
      </QueryPanel>
      <ReceiptsTable employer={employer} />
      <FormModal
        opened={recording}
        title="Record a payment received"
        onClose={() => setRecording(false)}
      >
        <ReceiptForm employer={employer} onClose={() => setRecording(false)} />
      </FormModal>
    </Stack>
  );
}

/** Each month of the window, oldest first, with what the API knows of it or that it knows nothing. */
function MonthsTable({
  from,
  to,
  months,
}: {
  from: string;
  to: string;
  months: readonly RemittanceMonth[];
}) {
  const caption = `Each month’s deductions and the payments received, ${formatPeriod(from)} to ${formatPeriod(to)}`;
  const byMonth = new Map(months.map((month) => [month.month, month]));
  return (
    <ScrollTable minWidth={760} label={caption}>
      <Table striped captionSide="top">
        <Table.Caption ta="left">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Month</Table.Th>
            <Table.Th>Deducted</Table.Th>
            <Table.Th>Received</Table.Th>
            <Table.Th>Due by</Table.Th>
            <Table.Th>Received in full on</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {monthsBetween(from, to).map((name) => {
            const month = byMonth.get(name);
            return (
              <Table.Tr key={name}>
                <Table.Th scope="row">{formatPeriod(name)}</Table.Th>
                <Table.Td>{month ? formatCents(month.expectedCents) : '—'}</Table.Td>
                <Table.Td>{month ? formatCents(month.receivedCents) : '—'}</Table.Td>
                <Table.Td>{formatDate(month?.dueOn ?? remittanceDueOn(name))}</Table.Td>
                <Table.Td>{month?.receivedOn ? formatDate(month.receivedOn) : '—'}</Table.Td>
                <Table.Td>
                  {month ? (
                    <RemittanceStatusBadge status={month.status} />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Nothing deducted or received
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** The payments received, the latest first, each removable by those who may record them. */
function ReceiptsTable({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  const [removing, setRemoving] = useState<RemittanceReceipt | null>(null);
  const nameOf = (receipt: RemittanceReceipt) =>
    `${formatCents(receipt.amountCents)} for ${formatPeriod(receipt.month)}, received ${formatDate(receipt.receivedOn)}`;
  const columns: Column<RemittanceReceipt>[] = [
    { key: 'month', header: 'For', render: (receipt) => formatPeriod(receipt.month) },
    {
      key: 'receivedOn',
      header: 'Received on',
      render: (receipt) => formatDate(receipt.receivedOn),
    },
    { key: 'amount', header: 'Amount', render: (receipt) => formatCents(receipt.amountCents) },
    { key: 'reference', header: 'Reference', render: (receipt) => receipt.reference ?? '—' },
  ];
  if (can(session, 'remittance_receipt.void', employerRow(employer))) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (receipt) => (
        <Button
          size="compact-sm"
          variant="default"
          color="red"
          aria-label={`Remove: ${nameOf(receipt)}`}
          onClick={() => setRemoving(receipt)}
        >
          Remove
        </Button>
      ),
    });
  }
  if (!can(session, 'remittance_receipt.list', employerRow(employer))) return null;
  return (
    <Stack gap="xs">
      <CursorTable
        queryKey={[...remittanceKey(employer.id), 'receipts']}
        route={apiRoutes.remittanceReceipts.listOfEmployer}
        params={{ id: employer.id }}
        columns={columns}
        caption="Payments received, the latest first"
        empty="No payment is recorded."
        rowNoun="payment"
      />
      <FormModal
        opened={removing !== null}
        title="Remove a payment recorded by mistake"
        onClose={() => setRemoving(null)}
      >
        {removing && (
          <RemoveForm
            employer={employer}
            receipt={removing}
            name={nameOf(removing)}
            onClose={() => setRemoving(null)}
          />
        )}
      </FormModal>
    </Stack>
  );
}

/** After a payment is recorded or removed: the calendar, the list and every standing read again. */
function useRefreshRemittance(employerId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: remittanceKey(employerId) }),
      client.invalidateQueries({ queryKey: ['schemes'] }),
      client.invalidateQueries({ queryKey: GOVERNANCE_KEY }),
    ]);
}

interface ReceiptValues {
  month: string;
  receivedOn: string;
  amount: string;
  reference: string;
}

/** A payment received: the month it is for (last month to start from), the day, the sum. */
function ReceiptForm({ employer, onClose }: { employer: Employer; onClose: () => void }) {
  const refresh = useRefreshRemittance(employer.id);
  const today = todayInIreland(new Date());
  const form = useForm<ReceiptValues>({
    initialValues: {
      month: payPeriodEntry(addToMonth(monthOfDay(today), -1)),
      receivedOn: '',
      amount: '',
      reference: '',
    },
    validate: {
      month: payPeriodRule,
      receivedOn: irishDateRule({ required: true }),
      amount: (value) => euroFieldError(value),
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const month = readPayPeriod(values.month);
    const amount = readEuro(values.amount);
    // The form's rules have said why a field is not read; nothing is sent.
    if (month === null || !amount.ok) return;
    const receipt = await api(apiRoutes.remittanceReceipts.create, {
      params: { id: employer.id },
      body: {
        month,
        receivedOn: values.receivedOn,
        amountCents: amount.cents,
        reference: values.reference.trim() === '' ? null : values.reference,
      },
    });
    notifySuccess(
      `${formatCents(receipt.amountCents)} for ${formatPeriod(receipt.month)} recorded as received on ${formatDate(receipt.receivedOn)}.`,
    );
    await refresh();
    onClose();
  });
  const month = readPayPeriod(form.values.month);
  return (
    <FormShell
      label="Record a payment received"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record payment"
      onCancel={onClose}
    >
      <PayPeriodInput
        label="Month of deduction"
        description={
          month === null
            ? 'Month first: MM/YYYY'
            : `Month first: MM/YYYY. Due at the scheme by ${formatDate(remittanceDueOn(month))}`
        }
        required
        data-autofocus
        {...form.getInputProps('month')}
      />
      <IrishDateInput
        label="Received on"
        description="Day first: DD/MM/YYYY"
        required
        {...(month === null ? {} : { minDate: firstDayOf(month) })}
        maxDate={today}
        {...form.getInputProps('receivedOn')}
      />
      <TextInput
        label="Amount received (€)"
        inputMode="decimal"
        placeholder="1,250.00"
        required
        {...form.getInputProps('amount')}
      />
      <TextInput
        label="Payment reference"
        description="As the bank statement or the employer gives it; optional"
        {...form.getInputProps('reference')}
      />
    </FormShell>
  );
}

/** Why a payment is removed: kept with it, as the register keeps the payment itself. */
function RemoveForm({
  employer,
  receipt,
  name,
  onClose,
}: {
  employer: Employer;
  receipt: RemittanceReceipt;
  name: string;
  onClose: () => void;
}) {
  const refresh = useRefreshRemittance(employer.id);
  const form = useForm({
    initialValues: { reason: '' },
    validate: validateWith<{ reason: string }>(remittanceReceiptVoid),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(apiRoutes.remittanceReceipts.remove, {
      params: { id: receipt.id },
      body: { reason: values.reason },
    });
    notifySuccess(`Removed: ${name}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Remove a payment recorded by mistake"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Remove payment"
      onCancel={onClose}
    >
      <Text size="sm">
        {name}. It stays on record as removed, with your reason, and no longer counts towards the
        month.
      </Text>
      <Textarea
        label="Why it is removed"
        required
        autosize
        minRows={2}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormShell>
  );
}
