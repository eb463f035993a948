import {
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  BREACH_STATUS_LABELS,
  DATA_BREACH_RULES,
  DATA_CATEGORIES,
  DATA_CATEGORY_LABELS,
  type DataCategory,
  needsDelayReason,
  RISK_TO_PEOPLE_LABELS,
  RISKS_TO_PEOPLE,
  type RiskToPeople,
} from '../../../contracts/data-breach-rules';
import {
  dataBreachClose,
  dataBreachInput,
  dpcNotificationInput,
  membersToldInput,
} from '../../../contracts/data-breaches';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import type { DataBreach } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { MomentFields } from '../../components/MomentFields';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatDateTime } from '../../format';
import { FormModal, FormShell } from '../governance/GovernanceForm';
import { type BreachStep, breachSteps, instantOf, momentErrors } from './breach-helpers';

/** Every read of the register sits under this key: a step refreshes it. */
const BREACHES_KEY = ['data-breaches'] as const;

const today = () => todayInIreland(new Date());

/** Free text as it was typed, its line breaks kept. */
function Written({ children }: { children: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
      {children}
    </Text>
  );
}

const STEP_LABELS: Record<BreachStep, string> = {
  notify: 'Record notification to the Commission',
  membersTold: 'Record people told',
  close: 'Close',
};

type Dialog = { kind: 'record' } | { kind: BreachStep; breach: DataBreach };

/**
 * `/data-breaches`: the firm's register of personal-data breaches
 * (docs/decisions/0138-personal-data-breaches.md), the latest recorded first, each with its
 * deadline to notify the Data Protection Commission and its clock in words; a form to record one,
 * and to a BrokerAdmin the steps that follow.
 */
export function DataBreachesPage() {
  const session = useSignedIn();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const mayOn = (breach: DataBreach) => (action: Parameters<typeof can>[1]) =>
    can(session, action, { brokerId: breach.brokerId, employerId: null });
  const columns: Column<DataBreach>[] = [
    {
      key: 'title',
      header: 'Breach',
      render: (breach) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {breach.title}
          </Text>
          <Written>{breach.description}</Written>
          <Text size="sm" c="dimmed">
            {breach.categoriesOfData.map((kind) => DATA_CATEGORY_LABELS[kind]).join('; ')}. People
            affected, roughly: {breach.approximateMembers}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'becameAwareAt',
      header: 'Became aware',
      render: (breach) => <DateTime value={breach.becameAwareAt} />,
      sortValue: (breach) => breach.becameAwareAt,
    },
    {
      key: 'risk',
      header: 'Risk to people',
      render: (breach) => RISK_TO_PEOPLE_LABELS[breach.riskToPeople],
    },
    {
      key: 'deadline',
      header: 'Commission to be told',
      render: (breach) => (
        <Stack gap={2}>
          {breach.dpcNotifiable ? (
            <Text size="sm">
              By <DateTime value={breach.dpcDeadlineAt} />
            </Text>
          ) : (
            <Text size="sm">Not required</Text>
          )}
          <Text size="sm" fw={breach.clock.overdue ? 700 : undefined}>
            {breach.clock.words}
          </Text>
          {breach.dpcNotifiedAt && (
            <Text size="sm" c="dimmed">
              Notified {formatDateTime(breach.dpcNotifiedAt)}
              {breach.dpcReference ? `, reference ${breach.dpcReference}` : ''}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'members',
      header: 'People affected told',
      render: (breach) =>
        breach.membersToldAt
          ? `Told ${formatDateTime(breach.membersToldAt)}`
          : breach.membersToBeTold
            ? 'Must be told: high risk'
            : 'Not required',
    },
    {
      key: 'status',
      header: 'Status',
      render: (breach) => (
        <Stack gap={0}>
          <Text size="sm">{BREACH_STATUS_LABELS[breach.status]}</Text>
          {breach.outcome && <Written>{breach.outcome}</Written>}
        </Stack>
      ),
      sortValue: (breach) => breach.status,
    },
  ];
  if (can(session, 'data_breach.notify') || can(session, 'data_breach.close')) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (breach) => (
        <Group gap="xs">
          {breachSteps(breach, mayOn(breach)).map((step) => (
            <Button
              key={step}
              size="compact-sm"
              variant="default"
              aria-label={`${STEP_LABELS[step]}: ${breach.title}`}
              onClick={() => setDialog({ kind: step, breach })}
            >
              {STEP_LABELS[step]}
            </Button>
          ))}
        </Group>
      ),
    });
  }
  return (
    <Stack gap="md">
      <PageHeading title="Data breaches">
        {can(session, 'data_breach.create') && (
          <Button onClick={() => setDialog({ kind: 'record' })}>Record a breach</Button>
        )}
      </PageHeading>
      <Text size="sm">
        Every personal-data breach, notified or not (
        {sourceInWords(DATA_BREACH_RULES.documentEveryBreach)}
        ). The Data Protection Commission is told within 72 hours of the firm becoming aware (
        {sourceInWords(DATA_BREACH_RULES.notifyWithin72Hours)}), counted as hours:{' '}
        {sourceInWords(DATA_BREACH_RULES.exactInstant)}.
      </Text>
      <CursorTable
        queryKey={BREACHES_KEY}
        route={apiRoutes.dataBreaches.list}
        columns={columns}
        caption="Personal-data breaches, the latest recorded first"
        empty="No breach is recorded."
        rowNoun="breach"
      />
      <FormModal opened={dialog?.kind === 'record'} title="Record a breach" onClose={close}>
        <BreachForm onClose={close} />
      </FormModal>
      <FormModal
        opened={dialog?.kind === 'notify'}
        title="Notification to the Data Protection Commission"
        onClose={close}
      >
        {dialog?.kind === 'notify' && <NotifyForm breach={dialog.breach} onClose={close} />}
      </FormModal>
      <FormModal
        opened={dialog?.kind === 'membersTold'}
        title="The people affected told"
        onClose={close}
      >
        {dialog?.kind === 'membersTold' && (
          <MembersToldForm breach={dialog.breach} onClose={close} />
        )}
      </FormModal>
      <FormModal opened={dialog?.kind === 'close'} title="Close a breach" onClose={close}>
        {dialog?.kind === 'close' && <CloseForm breach={dialog.breach} onClose={close} />}
      </FormModal>
    </Stack>
  );
}

function useRefreshBreaches() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: BREACHES_KEY });
}

interface BreachValues {
  title: string;
  description: string;
  becameAwareAt: string;
  becameAwareTime: string;
  categoriesOfData: string[];
  approximateMembers: number | string;
  riskToPeople: string;
}

const breachBody = (values: BreachValues) => ({
  title: values.title,
  description: values.description,
  becameAwareAt: instantOf(values.becameAwareAt, values.becameAwareTime),
  categoriesOfData: values.categoriesOfData as DataCategory[],
  approximateMembers:
    typeof values.approximateMembers === 'number' ? values.approximateMembers : undefined,
  riskToPeople: values.riskToPeople as RiskToPeople,
});

/** A breach recorded: what happened, when the firm became aware, what data and how many people. */
function BreachForm({ onClose }: { onClose: () => void }) {
  const refresh = useRefreshBreaches();
  const form = useForm<BreachValues>({
    initialValues: {
      title: '',
      description: '',
      becameAwareAt: '',
      becameAwareTime: '',
      categoriesOfData: [],
      approximateMembers: '',
      riskToPeople: '',
    },
    validate: (values) => ({
      ...validateWith(dataBreachInput, breachBody)(values),
      ...momentErrors({ ...values }, 'becameAwareAt', 'becameAwareTime'),
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const breach = await api(apiRoutes.dataBreaches.create, { body: breachBody(values) });
    notifySuccess(`Recorded: ${breach.title}. ${breach.clock.words}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Record a breach"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record breach"
      onCancel={onClose}
    >
      <TextInput label="Title" required data-autofocus {...form.getInputProps('title')} />
      <Textarea
        label="What happened"
        description="What happened and what it affects"
        required
        autosize
        minRows={3}
        {...form.getInputProps('description')}
      />
      <MomentFields
        label="Became aware"
        day={form.getInputProps('becameAwareAt')}
        time={form.getInputProps('becameAwareTime')}
      />
      <MultiSelect
        label="Kinds of personal data involved"
        required
        data={DATA_CATEGORIES.map((kind) => ({ value: kind, label: DATA_CATEGORY_LABELS[kind] }))}
        comboboxProps={{ withinPortal: false }}
        {...form.getInputProps('categoriesOfData')}
      />
      <NumberInput
        label="People affected, roughly"
        required
        min={0}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('approximateMembers')}
      />
      <NativeSelect
        label="Risk to people"
        description="Unless unlikely to result in a risk to people, the Commission is told; a high risk means the people affected are told too"
        required
        data={[
          { value: '', label: 'Choose the risk' },
          ...RISKS_TO_PEOPLE.map((risk) => ({ value: risk, label: RISK_TO_PEOPLE_LABELS[risk] })),
        ]}
        {...form.getInputProps('riskToPeople')}
      />
    </FormShell>
  );
}

interface NotifyValues {
  notifiedAt: string;
  notifiedTime: string;
  reference: string;
  delayReason: string;
}

const orUndefined = (text: string) => (text.trim() === '' ? undefined : text);

/** The notification to the Commission: when, its reference, and after the deadline the reasons. */
function NotifyForm({ breach, onClose }: { breach: DataBreach; onClose: () => void }) {
  const refresh = useRefreshBreaches();
  const late = (values: NotifyValues) => {
    const at = instantOf(values.notifiedAt, values.notifiedTime);
    return needsDelayReason(new Date(breach.becameAwareAt), at === '' ? new Date() : new Date(at));
  };
  const toBody = (values: NotifyValues) => ({
    notifiedAt: instantOf(values.notifiedAt, values.notifiedTime),
    reference: orUndefined(values.reference),
    delayReason: late(values) ? orUndefined(values.delayReason) : undefined,
  });
  const form = useForm<NotifyValues>({
    initialValues: { notifiedAt: today(), notifiedTime: '', reference: '', delayReason: '' },
    validate: (values) => ({
      ...validateWith(dpcNotificationInput, toBody)(values),
      ...momentErrors({ ...values }, 'notifiedAt', 'notifiedTime'),
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const notified = await api(apiRoutes.dataBreaches.notifyDpc, {
      params: { id: breach.id },
      body: toBody(values),
    });
    notifySuccess(`${notified.title}: ${notified.clock.words}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Notification to the Data Protection Commission"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record notification"
      onCancel={onClose}
    >
      <Text size="sm">
        {breach.title}. The deadline was {formatDateTime(breach.dpcDeadlineAt)}.
      </Text>
      <MomentFields
        label="Notified"
        day={form.getInputProps('notifiedAt')}
        time={form.getInputProps('notifiedTime')}
        autofocus
      />
      <TextInput
        label="The Commission’s reference"
        description="Optional"
        {...form.getInputProps('reference')}
      />
      {late(form.values) && (
        <Textarea
          label="Reasons for the delay"
          description={`Notified after the 72 hours: ${sourceInWords(DATA_BREACH_RULES.reasonsForDelay)}`}
          required
          autosize
          minRows={2}
          {...form.getInputProps('delayReason')}
        />
      )}
    </FormShell>
  );
}

/** That the people affected were told: when, and how. */
function MembersToldForm({ breach, onClose }: { breach: DataBreach; onClose: () => void }) {
  const refresh = useRefreshBreaches();
  type Values = { toldAt: string; toldTime: string; how: string };
  const toBody = (values: Values) => ({
    toldAt: instantOf(values.toldAt, values.toldTime),
    how: values.how,
  });
  const form = useForm<Values>({
    initialValues: { toldAt: today(), toldTime: '', how: '' },
    validate: (values) => ({
      ...validateWith(membersToldInput, toBody)(values),
      ...momentErrors({ ...values }, 'toldAt', 'toldTime'),
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(apiRoutes.dataBreaches.membersTold, {
      params: { id: breach.id },
      body: toBody(values),
    });
    notifySuccess(`${breach.title}: the people affected were told.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="The people affected told"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record"
      onCancel={onClose}
    >
      <Text size="sm">
        {breach.title}. {sourceInWords(DATA_BREACH_RULES.tellThePeople)}.
      </Text>
      <MomentFields
        label="Told"
        day={form.getInputProps('toldAt')}
        time={form.getInputProps('toldTime')}
        autofocus
      />
      <Textarea
        label="How they were told"
        required
        autosize
        minRows={2}
        {...form.getInputProps('how')}
      />
    </FormShell>
  );
}

/** Closing: what was found and done, kept with the breach in the register. */
function CloseForm({ breach, onClose }: { breach: DataBreach; onClose: () => void }) {
  const refresh = useRefreshBreaches();
  const form = useForm({
    initialValues: { outcome: '' },
    validate: validateWith<{ outcome: string }>(dataBreachClose),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(apiRoutes.dataBreaches.close, { params: { id: breach.id }, body: values });
    notifySuccess(`Closed: ${breach.title}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Close a breach"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Close breach"
      onCancel={onClose}
    >
      <Text size="sm">{breach.title}. It stays in the register, shown as closed.</Text>
      <Textarea
        label="Outcome"
        description={
          breach.dpcNotifiable
            ? 'What was found and done'
            : 'What was found and done, and why it was unlikely to result in a risk to people'
        }
        required
        autosize
        minRows={3}
        data-autofocus
        {...form.getInputProps('outcome')}
      />
    </FormShell>
  );
}
