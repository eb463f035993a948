import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  DATA_REQUEST_KIND_NAMES,
  DATA_REQUEST_KINDS,
  DATA_REQUEST_RULES,
  DATA_REQUEST_STATUS_NAMES,
  DATA_REQUEST_STATUSES,
  type DataRequestKind,
  type DataRequestStatus,
  extendedDueOn,
  isClosed,
  REFUSAL_CITATION_NAMES,
  REFUSAL_CITATIONS,
  type RefusalCitation,
} from '../../../contracts/data-request-rules';
import {
  type DataRequestView,
  dataRequestCompletion,
  dataRequestExtension,
  dataRequestRefusal,
} from '../../../contracts/data-requests';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { useAllEmployers } from '../../components/allPages';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { MemberPicker } from '../../components/MemberPicker';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatDate } from '../../format';
import { FormModal, FormShell } from '../governance/GovernanceForm';
import { DataRequestClockBadge } from './DataRequestClock';
import { EraseForm } from './EraseForm';
import { correctedInWords, RectificationDetails, RectifyForm } from './Rectification';

/** Every read of the register sits under this key: a step refreshes them all. */
const DATA_REQUESTS_KEY = ['data-requests'] as const;

type Step = {
  kind: 'extend' | 'complete' | 'refuse' | 'rectify' | 'rectified' | 'erase';
  request: DataRequestView;
};

/**
 * `/data-requests`: the firm's register of data-subject requests
 * (docs/decisions/0137-data-subject-requests.md), the earliest due first, each with its clock in
 * words, a form to record one, and the steps that answer it.
 */
export function DataRequestsPage() {
  const session = useSignedIn();
  const [status, setStatus] = useState<DataRequestStatus | null>(null);
  const [recording, setRecording] = useState(false);
  const [step, setStep] = useState<Step | null>(null);
  const mayAct = (request: DataRequestView) =>
    !isClosed(request.status) &&
    can(session, 'data_request.complete') &&
    can(session, 'data_request.refuse');
  const nameOf = (request: DataRequestView) =>
    `${DATA_REQUEST_KIND_NAMES[request.kind]} from ${request.memberName}, received ${formatDate(request.receivedOn)}`;
  const columns: Column<DataRequestView>[] = [
    { key: 'member', header: 'Member', render: (request) => request.memberName },
    { key: 'kind', header: 'Request', render: (request) => DATA_REQUEST_KIND_NAMES[request.kind] },
    {
      key: 'receivedOn',
      header: 'Received on',
      render: (request) => formatDate(request.receivedOn),
    },
    {
      key: 'dueOn',
      header: 'Due by',
      render: (request) =>
        request.extendedTo === undefined
          ? formatDate(request.dueOn)
          : `${formatDate(request.dueOn)} (extended from ${formatDate(request.originalDueOn)})`,
    },
    {
      key: 'status',
      header: 'Status',
      render: (request) =>
        request.correctedFields === null
          ? DATA_REQUEST_STATUS_NAMES[request.status]
          : `${DATA_REQUEST_STATUS_NAMES[request.status]}: corrected ${correctedInWords(request.correctedFields)}`,
    },
    {
      key: 'clock',
      header: 'Clock',
      render: (request) => <DataRequestClockBadge clock={request.clock} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (request) =>
        mayAct(request) ? (
          <Group gap={4}>
            {request.status === 'open' && (
              <Button
                size="compact-sm"
                variant="default"
                aria-label={`Extend: ${nameOf(request)}`}
                onClick={() => setStep({ kind: 'extend', request })}
              >
                Extend
              </Button>
            )}
            {request.kind === 'erasure' && can(session, 'data_request.erase') && (
              <Button
                size="compact-sm"
                variant="default"
                color="red"
                aria-label={`Erase: ${nameOf(request)}`}
                onClick={() => setStep({ kind: 'erase', request })}
              >
                Erase
              </Button>
            )}
            {request.kind === 'rectification' ? (
              <Button
                size="compact-sm"
                variant="default"
                aria-label={`Record the correction: ${nameOf(request)}`}
                onClick={() => setStep({ kind: 'rectify', request })}
              >
                Record the correction
              </Button>
            ) : (
              <Button
                size="compact-sm"
                variant="default"
                aria-label={`Complete: ${nameOf(request)}`}
                onClick={() => setStep({ kind: 'complete', request })}
              >
                Complete
              </Button>
            )}
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              aria-label={`Refuse: ${nameOf(request)}`}
              onClick={() => setStep({ kind: 'refuse', request })}
            >
              Refuse
            </Button>
          </Group>
        ) : request.correctedFields !== null ? (
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`Recipients told: ${nameOf(request)}`}
            onClick={() => setStep({ kind: 'rectified', request })}
          >
            Recipients told
          </Button>
        ) : (
          '—'
        ),
    },
  ];
  const close = () => setStep(null);
  const refreshRequests = useRefresh();
  return (
    <Stack gap="lg">
      <PageHeading title="Data requests">
        {can(session, 'data_request.create') && (
          <Button onClick={() => setRecording(true)}>Record a request</Button>
        )}
      </PageHeading>
      <Text size="sm">
        A member’s request to see, correct, erase or restrict their data, or objecting to its use,
        is answered within one month of its receipt; for a complex or numerous request the month may
        be extended by two more, once, if the member is told within the first month (
        {sourceInWords(DATA_REQUEST_RULES.answerWithin)}).
      </Text>
      <Select
        label="Status"
        placeholder="Every status"
        clearable
        w={240}
        data={DATA_REQUEST_STATUSES.map((value) => ({
          value,
          label: DATA_REQUEST_STATUS_NAMES[value],
        }))}
        value={status}
        onChange={(value) => setStatus(value as DataRequestStatus | null)}
      />
      <CursorTable
        queryKey={[...DATA_REQUESTS_KEY, 'list', status]}
        route={apiRoutes.dataRequests.list}
        query={status === null ? {} : { status }}
        columns={columns}
        caption="Data-subject requests, the earliest due first"
        empty="No request is recorded."
        rowNoun="request"
      />
      <FormModal opened={recording} title="Record a request" onClose={() => setRecording(false)}>
        <RecordForm onClose={() => setRecording(false)} />
      </FormModal>
      <FormModal
        opened={step !== null}
        title={
          step?.kind === 'extend'
            ? 'Extend a request'
            : step?.kind === 'complete'
              ? 'Complete a request'
              : step?.kind === 'erase'
                ? 'Carry out an erasure request'
                : step?.kind === 'rectify'
                  ? 'Record the correction'
                  : step?.kind === 'rectified'
                    ? 'The correction and the recipients told'
                    : 'Refuse a request'
        }
        onClose={close}
      >
        {step?.kind === 'extend' && (
          <ExtendForm request={step.request} name={nameOf(step.request)} onClose={close} />
        )}
        {step?.kind === 'complete' && (
          <CompleteForm request={step.request} name={nameOf(step.request)} onClose={close} />
        )}
        {step?.kind === 'erase' && (
          <EraseForm
            request={step.request}
            name={nameOf(step.request)}
            onDone={refreshRequests}
            onClose={close}
          />
        )}
        {step?.kind === 'rectify' && (
          <RectifyForm request={step.request} name={nameOf(step.request)} onClose={close} />
        )}
        {step?.kind === 'rectified' && (
          <RectificationDetails request={step.request} onClose={close} />
        )}
        {step?.kind === 'refuse' && (
          <RefuseForm request={step.request} name={nameOf(step.request)} onClose={close} />
        )}
      </FormModal>
    </Stack>
  );
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: DATA_REQUESTS_KEY });
}

interface RecordValues {
  employerId: string | null;
  memberId: string | null;
  kind: DataRequestKind | null;
  receivedOn: string;
}

/** A request as received: whose (an employer, then one of its members), what, and when. */
function RecordForm({ onClose }: { onClose: () => void }) {
  const refresh = useRefresh();
  const employers = useAllEmployers();
  const today = todayInIreland(new Date());
  const form = useForm<RecordValues>({
    initialValues: { employerId: null, memberId: null, kind: null, receivedOn: today },
    validate: {
      employerId: (value) => (value ? null : 'Choose the member’s employer'),
      memberId: (value) => (value ? null : 'Choose the member who made the request'),
      kind: (value) => (value ? null : 'Choose what the member asked for'),
      receivedOn: irishDateRule({ required: true }),
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (values.memberId === null || values.kind === null) return;
    const request = await api(apiRoutes.dataRequests.create, {
      body: { memberId: values.memberId, kind: values.kind, receivedOn: values.receivedOn },
    });
    notifySuccess(
      `${DATA_REQUEST_KIND_NAMES[request.kind]} from ${request.memberName} recorded: due by ${formatDate(request.dueOn)}.`,
    );
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Record a request"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record request"
      onCancel={onClose}
    >
      <Select
        label="Employer"
        description="The member’s employer, to find the member among its schemes"
        required
        searchable
        data-autofocus
        data={(employers.data?.items ?? []).map((employer) => ({
          value: employer.id,
          label: employer.name,
        }))}
        {...form.getInputProps('employerId')}
        onChange={(value) => {
          form.setFieldValue('employerId', value);
          form.setFieldValue('memberId', null);
        }}
      />
      {form.values.employerId && (
        <MemberPicker
          purpose="request"
          employerId={form.values.employerId}
          value={form.values.memberId}
          onChange={(value) => form.setFieldValue('memberId', value)}
          error={form.errors.memberId}
        />
      )}
      <Select
        label="What the member asked for"
        required
        data={DATA_REQUEST_KINDS.map((value) => ({
          value,
          label: DATA_REQUEST_KIND_NAMES[value],
        }))}
        {...form.getInputProps('kind')}
      />
      <IrishDateInput
        label="Received on"
        description="Day first: DD/MM/YYYY; not after today"
        required
        maxDate={today}
        {...form.getInputProps('receivedOn')}
      />
    </FormShell>
  );
}

/** Two more months, with what the member was told. */
function ExtendForm({
  request,
  name,
  onClose,
}: {
  request: DataRequestView;
  name: string;
  onClose: () => void;
}) {
  const refresh = useRefresh();
  const form = useForm({
    initialValues: { reason: '' },
    validate: validateWith<{ reason: string }>(dataRequestExtension),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const extended = await api(apiRoutes.dataRequests.extend, {
      params: { id: request.id },
      body: { reason: values.reason },
    });
    notifySuccess(`Extended: ${name}. Now due by ${formatDate(extended.dueOn)}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Extend a request"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Extend request"
      onCancel={onClose}
    >
      <Text size="sm">
        {name}. Extended, it is due by {formatDate(extendedDueOn(request.originalDueOn))} instead of{' '}
        {formatDate(request.originalDueOn)}. A request is extended once, on or before its first due
        date ({sourceInWords(DATA_REQUEST_RULES.extension)}).
      </Text>
      <Textarea
        label="What the member was told"
        description="Why the request needs more time"
        required
        autosize
        minRows={2}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormShell>
  );
}

/** The request answered today, with a note if one is kept. */
function CompleteForm({
  request,
  name,
  onClose,
}: {
  request: DataRequestView;
  name: string;
  onClose: () => void;
}) {
  const refresh = useRefresh();
  const form = useForm({
    initialValues: { note: '' },
    validate: validateWith<{ note: string }>(dataRequestCompletion, (values) => ({
      ...(values.note.trim() === '' ? {} : { note: values.note }),
    })),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(apiRoutes.dataRequests.complete, {
      params: { id: request.id },
      body: values.note.trim() === '' ? {} : { note: values.note },
    });
    notifySuccess(`Completed: ${name}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Complete a request"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Complete request"
      onCancel={onClose}
    >
      <Text size="sm">{name}. It is recorded as answered today, and closed.</Text>
      <Textarea
        label="Note"
        description="What was done; optional"
        autosize
        minRows={2}
        data-autofocus
        {...form.getInputProps('note')}
      />
    </FormShell>
  );
}

interface RefuseValues {
  citation: RefusalCitation | null;
  reason: string;
}

/** A refusal: the ground from the list, and the reason in words. */
function RefuseForm({
  request,
  name,
  onClose,
}: {
  request: DataRequestView;
  name: string;
  onClose: () => void;
}) {
  const refresh = useRefresh();
  const form = useForm<RefuseValues>({
    initialValues: { citation: null, reason: '' },
    validate: validateWith<RefuseValues>(dataRequestRefusal),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (values.citation === null) return;
    await api(apiRoutes.dataRequests.refuse, {
      params: { id: request.id },
      body: { citation: values.citation, reason: values.reason },
    });
    notifySuccess(`Refused: ${name}.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Refuse a request"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Refuse request"
      onCancel={onClose}
    >
      <Text size="sm">{name}. It is recorded as refused today, and closed.</Text>
      <Select
        label="Ground"
        required
        data-autofocus
        data={REFUSAL_CITATIONS.map((value) => ({
          value,
          label: REFUSAL_CITATION_NAMES[value],
        }))}
        {...form.getInputProps('citation')}
      />
      <Textarea
        label="Reason"
        description="Why the ground applies to this request"
        required
        autosize
        minRows={2}
        {...form.getInputProps('reason')}
      />
    </FormShell>
  );
}
