import { Badge, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { POLICY_STATUS_NAMES, policyApproval, policyInput } from '../../../contracts/governance';
import {
  POLICY_KIND_NAMES,
  POLICY_KINDS,
  type PolicyKind,
  requiredPolicyKinds,
  SIGNIFICANT_CHANGE_EFFECTS,
} from '../../../contracts/governance-rules';
import { todayInIreland } from '../../../contracts/irish-dates';
import { api } from '../../api/client';
import type { Scheme, WrittenPolicy } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { DocumentLinkCell } from './DocumentLink';
import { FormModal, FormShell } from './GovernanceForm';
import { shownDate, validateWithDates } from './governance-helpers';
import { registerKey, useRefreshGovernance } from './governanceQueries';
import { SignificantChangeForm } from './RiskRegisters';

const nameOf = (policy: WrittenPolicy) => `${POLICY_KIND_NAMES[policy.kind]} ${policy.version}`;

type Dialog =
  | { kind: 'draft'; from?: WrittenPolicy }
  | { kind: 'approve'; policy: WrittenPolicy }
  | { kind: 'change'; policy: WrittenPolicy }
  | { kind: 'delete'; policy: WrittenPolicy };

/**
 * The scheme's written policies: each drafted, approved by the trustees before use, and replaced
 * by approving a new version; a significant change in a policy's area brings its review forward.
 */
export function PoliciesRegister({ scheme, history }: { scheme: Scheme; history: boolean }) {
  const session = useSignedIn();
  const refresh = useRefreshGovernance(scheme.id);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const allowed = {
    create: canChange(session, 'policy.create', scheme),
    approve: canChange(session, 'policy.approve', scheme),
    change: canChange(session, 'policy.significant_change', scheme),
    remove: canChange(session, 'policy.delete', scheme),
    update: canChange(session, 'policy.update', scheme),
  };
  const required = requiredPolicyKinds(scheme.type).map((kind) => POLICY_KIND_NAMES[kind]);

  const columns: Column<WrittenPolicy>[] = [
    {
      key: 'kind',
      header: 'Policy',
      render: (policy) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {POLICY_KIND_NAMES[policy.kind]}
          </Text>
          {policy.title !== POLICY_KIND_NAMES[policy.kind] && <Text size="sm">{policy.title}</Text>}
        </Stack>
      ),
      sortValue: (policy) => policy.kind,
    },
    { key: 'version', header: 'Version', render: (policy) => policy.version },
    {
      key: 'status',
      header: 'Status',
      render: (policy) => (
        <Badge
          variant="dot"
          color={
            policy.status === 'approved' ? 'green' : policy.status === 'draft' ? 'blue' : 'gray'
          }
          miw="max-content"
        >
          {POLICY_STATUS_NAMES[policy.status]}
        </Badge>
      ),
    },
    {
      key: 'approvedOn',
      header: 'Approved on',
      render: (policy) => <ApprovalCell policy={policy} />,
    },
    {
      key: 'nextReviewDue',
      header: 'Next review due',
      render: (policy) =>
        policy.significantChangeOn ? (
          <Stack gap={0}>
            <Text size="sm">{shownDate(policy.nextReviewDue)}</Text>
            <Text size="sm">Significant change on {shownDate(policy.significantChangeOn)}</Text>
          </Stack>
        ) : (
          shownDate(policy.nextReviewDue)
        ),
      sortValue: (policy) => policy.nextReviewDue ?? '9999-12-31',
    },
    {
      key: 'document',
      header: 'Document',
      render: (policy) => (
        <DocumentLinkCell
          scheme={scheme}
          entry={policy}
          target={{
            register: 'written_policy',
            route: apiRoutes.policies.update,
            id: policy.id,
            list: 'policies',
            name: nameOf(policy),
          }}
          canChange={allowed.update && policy.status !== 'superseded'}
        />
      ),
    },
  ];
  if (Object.values(allowed).some(Boolean)) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (policy) => (
        <Group gap="xs">
          {policy.status === 'draft' && allowed.approve && (
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setDialog({ kind: 'approve', policy })}
              aria-label={`Approve ${nameOf(policy)}`}
            >
              Approve
            </Button>
          )}
          {policy.status === 'approved' && allowed.change && (
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setDialog({ kind: 'change', policy })}
              aria-label={`Record a significant change for ${nameOf(policy)}`}
            >
              Record significant change
            </Button>
          )}
          {policy.status === 'approved' && allowed.create && (
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setDialog({ kind: 'draft', from: policy })}
              aria-label={`Draft a new version of ${nameOf(policy)}`}
            >
              Draft new version
            </Button>
          )}
          {policy.status !== 'superseded' && allowed.remove && (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={() => setDialog({ kind: 'delete', policy })}
              aria-label={`Delete ${nameOf(policy)}`}
            >
              Delete
            </Button>
          )}
        </Group>
      ),
    });
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-policies">
      <PageHeading title="Written policies" order={3} id="governance-policies">
        {allowed.create && (
          <Button variant="light" onClick={() => setDialog({ kind: 'draft' })}>
            Draft a policy
          </Button>
        )}
      </PageHeading>
      <Text size="sm">The trustees must approve: {required.join(', ')}.</Text>
      <CursorTable
        queryKey={[...registerKey(scheme.id, 'policies'), { history }]}
        route={apiRoutes.policies.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100, includeHistory: history ? 'true' : 'false' }}
        columns={columns}
        caption={history ? 'Written policies, superseded versions included' : 'Written policies'}
        empty="No written policy is recorded."
      />
      <FormModal
        opened={dialog?.kind === 'draft'}
        title={
          dialog?.kind === 'draft' && dialog.from
            ? `Draft a new version of the ${POLICY_KIND_NAMES[dialog.from.kind].toLowerCase()}`
            : 'Draft a policy'
        }
        onClose={close}
      >
        {dialog?.kind === 'draft' && (
          <PolicyForm scheme={scheme} from={dialog.from} onClose={close} />
        )}
      </FormModal>
      <FormModal opened={dialog?.kind === 'approve'} title="Approve policy" onClose={close}>
        {dialog?.kind === 'approve' && (
          <ApproveForm scheme={scheme} policy={dialog.policy} onClose={close} />
        )}
      </FormModal>
      <FormModal
        opened={dialog?.kind === 'change'}
        title="Record a significant change"
        onClose={close}
      >
        {dialog?.kind === 'change' && (
          <SignificantChangeForm
            scheme={scheme}
            target={{ route: apiRoutes.policies.significantChange, id: dialog.policy.id }}
            registers={['changes', 'policies']}
            about={SIGNIFICANT_CHANGE_EFFECTS.policy(
              POLICY_KIND_NAMES[dialog.policy.kind].toLowerCase(),
            )}
            onClose={close}
          />
        )}
      </FormModal>
      <ConfirmModal
        opened={dialog?.kind === 'delete'}
        onClose={close}
        title="Delete policy"
        confirmLabel="Delete"
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api(apiRoutes.policies.remove, { params: { id: dialog.policy.id } });
          notifySuccess(`${nameOf(dialog.policy)} deleted.`);
          await refresh('policies');
        }}
      >
        <Text>
          Delete {dialog?.kind === 'delete' ? nameOf(dialog.policy) : 'this policy'}? Delete only an
          entry made in error.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

interface PolicyValues {
  kind: PolicyKind | '';
  title: string;
  version: string;
}

const policyBody = (values: PolicyValues) => ({
  kind: values.kind === '' ? undefined : values.kind,
  title: values.title,
  version: values.version,
});

const KIND_NAMES = new Set<string>(Object.values(POLICY_KIND_NAMES));

/** A new policy, or (`from`) a new version of one in use: a draft until the trustees approve it. */
function PolicyForm({
  scheme,
  from,
  onClose,
}: {
  scheme: Scheme;
  from?: WrittenPolicy;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const form = useForm<PolicyValues>({
    initialValues: from
      ? { kind: from.kind, title: from.title, version: '' }
      : { kind: '', title: '', version: '1.0' },
    validate: validateWith(policyInput, policyBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const policy = await api(apiRoutes.policies.create, {
      params: { id: scheme.id },
      body: policyBody(values),
    });
    notifySuccess(`${nameOf(policy)} drafted: the trustees approve it before it is in use.`);
    await refresh('policies');
    onClose();
  });
  const kindProps = form.getInputProps('kind');
  return (
    <FormShell
      label={from ? 'Draft a new version' : 'Draft a policy'}
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save draft"
      onCancel={onClose}
    >
      {from ? (
        <Text>Version {from.version} stays in use until the trustees approve this one.</Text>
      ) : (
        <NativeSelect
          label="Kind of policy"
          required
          data-autofocus
          data={[
            { value: '', label: 'Choose a kind of policy' },
            ...POLICY_KINDS.map((kind) => ({ value: kind, label: POLICY_KIND_NAMES[kind] })),
          ]}
          {...kindProps}
          onChange={(event) => {
            kindProps.onChange(event);
            const kind = event.currentTarget.value as PolicyKind | '';
            // The kind's name is the usual title: filled in until the person types one of their own.
            if (form.values.title === '' || KIND_NAMES.has(form.values.title)) {
              form.setFieldValue('title', kind === '' ? '' : POLICY_KIND_NAMES[kind]);
            }
          }}
        />
      )}
      <TextInput label="Title" required {...form.getInputProps('title')} />
      <TextInput
        label="Version"
        required
        data-autofocus={from ? true : undefined}
        placeholder="1.0"
        {...form.getInputProps('version')}
      />
    </FormShell>
  );
}

/**
 * The day the trustees approved a version, and the meeting or minute that records their decision;
 * an approval recorded before the reference was asked for says that it has none.
 */
function ApprovalCell({ policy }: { policy: WrittenPolicy }) {
  if (policy.approvedOn === null) return shownDate(null);
  return (
    <Stack gap={0}>
      <Text size="sm">{shownDate(policy.approvedOn)}</Text>
      {policy.approvalReference === null ? (
        <Text size="sm" c="dimmed">
          No meeting or minute recorded
        </Text>
      ) : (
        <Text size="sm">{policy.approvalReference}</Text>
      )}
    </Stack>
  );
}

function ApproveForm({
  scheme,
  policy,
  onClose,
}: {
  scheme: Scheme;
  policy: WrittenPolicy;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const today = todayInIreland(new Date());
  const form = useForm<{ approvedOn: string; approvalReference: string }>({
    initialValues: { approvedOn: today, approvalReference: '' },
    validate: validateWithDates(policyApproval, (values) => values, {
      approvedOn: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const approved = await api(apiRoutes.policies.approve, {
      params: { id: policy.id },
      body: values,
    });
    notifySuccess(
      `${nameOf(approved)} approved (${approved.approvalReference}); next review due ${shownDate(approved.nextReviewDue)}.`,
    );
    await refresh('policies');
    onClose();
  });
  return (
    <FormShell
      label="Approve policy"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Approve"
      onCancel={onClose}
    >
      <Text>
        Record the trustees’ approval of {nameOf(policy)}. It replaces any version in use.
      </Text>
      <IrishDateInput
        label="Approved on"
        required
        maxDate={today}
        data-autofocus
        {...form.getInputProps('approvedOn')}
      />
      <TextInput
        label="Meeting or minute reference"
        description="Where the trustees’ decision is recorded: the meeting, or its minute"
        placeholder="Board meeting 12 March 2026, minute 4.2"
        required
        {...form.getInputProps('approvalReference')}
      />
    </FormShell>
  );
}
