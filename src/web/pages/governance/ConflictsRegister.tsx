import { Button, Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { conflictChange, conflictInput } from '../../../contracts/governance';
import { GOVERNANCE_RULES } from '../../../contracts/governance-rules';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import type { Conflict, Scheme } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { FormModal, FormShell } from './GovernanceForm';
import { orNull, shownDate, validateWithDates } from './governance-helpers';
import { registerKey, useRefreshGovernance, useTrusteeNames } from './governanceQueries';

const today = () => todayInIreland(new Date());

/** A conflict in words, for buttons and dialogs: whose it is and when it was declared. */
const nameOf = (conflict: Pick<Conflict, 'personName' | 'declaredOn'>) =>
  `${conflict.personName}, declared on ${shownDate(conflict.declaredOn)}`;

/** Free text as it was typed, its line breaks kept. */
function Written({ children }: { children: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
      {children}
    </Text>
  );
}

type Dialog =
  | { kind: 'record' }
  | { kind: 'manage'; conflict: Conflict }
  | { kind: 'close'; conflict: Conflict }
  | { kind: 'reopen'; conflict: Conflict };

/**
 * The scheme's register of conflicts of interest (guidance: GOVERNANCE_RULES.conflictsOfInterest):
 * each interest a trustee, a key function holder or an adviser declares, how it is managed, and
 * the day it ended. An entry is never deleted: it is closed, and stays in the register; the
 * service allows its management and its closing to change, nothing else.
 */
export function ConflictsRegister({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const refresh = useRefreshGovernance(scheme.id);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const columns: Column<Conflict>[] = [
    {
      key: 'person',
      header: 'Person',
      render: (conflict) => (
        <Stack gap={0}>
          <Text size="sm">{conflict.personName}</Text>
          {conflict.trusteeId !== null && (
            <Text size="sm" c="dimmed">
              Trustee of the scheme
            </Text>
          )}
        </Stack>
      ),
      sortValue: (conflict) => conflict.personName,
    },
    {
      key: 'interest',
      header: 'Interest or conflict',
      render: (conflict) => <Written>{conflict.interest}</Written>,
    },
    {
      key: 'declaredOn',
      header: 'Declared on',
      render: (conflict) => shownDate(conflict.declaredOn),
      sortValue: (conflict) => conflict.declaredOn,
    },
    {
      key: 'management',
      header: 'How it is managed',
      render: (conflict) =>
        conflict.management === null ? (
          <Text size="sm" c="dimmed">
            Not yet recorded
          </Text>
        ) : (
          <Written>{conflict.management}</Written>
        ),
    },
    {
      key: 'closedOn',
      header: 'Closed on',
      render: (conflict) => (conflict.closedOn === null ? 'Open' : shownDate(conflict.closedOn)),
      sortValue: (conflict) => conflict.closedOn ?? '9999-12-31',
    },
  ];
  if (canChange(session, 'conflict.update', scheme)) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (conflict) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => setDialog({ kind: 'manage', conflict })}
            aria-label={`Record how the conflict of ${nameOf(conflict)} is managed`}
          >
            {conflict.management === null ? 'Record management' : 'Change management'}
          </Button>
          {conflict.closedOn === null ? (
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setDialog({ kind: 'close', conflict })}
              aria-label={`Close the conflict of ${nameOf(conflict)}`}
            >
              Close
            </Button>
          ) : (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => setDialog({ kind: 'reopen', conflict })}
              aria-label={`Reopen the conflict of ${nameOf(conflict)}`}
            >
              Reopen
            </Button>
          )}
        </Group>
      ),
    });
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-conflicts">
      <PageHeading title="Conflicts of interest" order={3} id="governance-conflicts">
        {canChange(session, 'conflict.create', scheme) && (
          <Button variant="light" onClick={() => setDialog({ kind: 'record' })}>
            Record a conflict of interest
          </Button>
        )}
      </PageHeading>
      <Text size="sm">
        Each interest a trustee, a key function holder or an adviser declares, how it is managed and
        when it ended; a closed one stays in the register.{' '}
        {sourceInWords(GOVERNANCE_RULES.conflictsOfInterest)}.
      </Text>
      <CursorTable
        queryKey={registerKey(scheme.id, 'conflicts')}
        route={apiRoutes.conflicts.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100 }}
        columns={columns}
        caption="Conflicts of interest, latest recorded first"
        empty="No conflict of interest is recorded."
      />
      <FormModal
        opened={dialog?.kind === 'record'}
        title="Record a conflict of interest"
        onClose={close}
      >
        <ConflictForm scheme={scheme} onClose={close} />
      </FormModal>
      <FormModal
        opened={dialog?.kind === 'manage'}
        title="How a conflict of interest is managed"
        onClose={close}
      >
        {dialog?.kind === 'manage' && (
          <ManagementForm scheme={scheme} conflict={dialog.conflict} onClose={close} />
        )}
      </FormModal>
      <FormModal
        opened={dialog?.kind === 'close'}
        title="Close a conflict of interest"
        onClose={close}
      >
        {dialog?.kind === 'close' && (
          <CloseForm scheme={scheme} conflict={dialog.conflict} onClose={close} />
        )}
      </FormModal>
      <ConfirmModal
        opened={dialog?.kind === 'reopen'}
        onClose={close}
        title="Reopen a conflict of interest"
        confirmLabel="Reopen"
        color="blue"
        onConfirm={async () => {
          if (dialog?.kind !== 'reopen') return;
          await api(apiRoutes.conflicts.update, {
            params: { id: dialog.conflict.id },
            body: { closedOn: null },
          });
          notifySuccess(`The conflict of ${nameOf(dialog.conflict)} is open again.`);
          await refresh('conflicts');
        }}
      >
        <Text>
          Reopen the conflict of{' '}
          {dialog?.kind === 'reopen' ? nameOf(dialog.conflict) : 'this person'}? Its closing day is
          removed and it is shown as open.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

interface ConflictValues {
  trusteeId: string;
  personName: string;
  interest: string;
  declaredOn: string;
  management: string;
}

const conflictBody = (values: ConflictValues) => ({
  personName: values.personName,
  trusteeId: orNull(values.trusteeId),
  interest: values.interest,
  declaredOn: values.declaredOn,
  management: orNull(values.management),
});

/**
 * A conflict declared: who has the interest (one of the scheme's trustees, or anyone else named),
 * what it is, the day it was declared, and how it is managed where that is known already.
 */
function ConflictForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const refresh = useRefreshGovernance(scheme.id);
  const trustees = useTrusteeNames(scheme.id).data?.items ?? [];
  const form = useForm<ConflictValues>({
    initialValues: {
      trusteeId: '',
      personName: '',
      interest: '',
      declaredOn: today(),
      management: '',
    },
    validate: validateWithDates(conflictInput, conflictBody, { declaredOn: { required: true } }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const conflict = await api(apiRoutes.conflicts.create, {
      params: { id: scheme.id },
      body: conflictBody(values),
    });
    notifySuccess(`The conflict of interest of ${conflict.personName} is recorded.`);
    await refresh('conflicts');
    onClose();
  });
  const trusteeProps = form.getInputProps('trusteeId');
  const trusteeName = (id: string) => trustees.find((trustee) => trustee.id === id)?.name;
  return (
    <FormShell
      label="Record a conflict of interest"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record"
      onCancel={onClose}
    >
      <NativeSelect
        label="Declared by a trustee of this scheme"
        data-autofocus
        data={[
          { value: '', label: 'No: a key function holder, an adviser or another person' },
          ...trustees.map((trustee) => ({ value: trustee.id, label: trustee.name })),
        ]}
        {...trusteeProps}
        onChange={(event) => {
          const previous = trusteeName(form.values.trusteeId);
          trusteeProps.onChange(event);
          // The trustee's name is the person's: filled in unless the person typed another.
          const chosen = trusteeName(event.currentTarget.value);
          if (form.values.personName === '' || form.values.personName === previous) {
            form.setFieldValue('personName', chosen ?? '');
          }
        }}
      />
      <TextInput
        label="Name of the person who has the interest"
        required
        {...form.getInputProps('personName')}
      />
      <Textarea
        label="Interest or conflict"
        description="What the interest is, and what it conflicts with"
        required
        autosize
        minRows={2}
        {...form.getInputProps('interest')}
      />
      <IrishDateInput
        label="Declared on"
        required
        maxDate={today()}
        {...form.getInputProps('declaredOn')}
      />
      <Textarea
        label="How it is managed (optional)"
        description="For example: abstains from votes on the fund range. It can be recorded later"
        autosize
        minRows={2}
        {...form.getInputProps('management')}
      />
    </FormShell>
  );
}

/** How the conflict is managed: recorded, changed or cleared; only a change is sent. */
function ManagementForm({
  scheme,
  conflict,
  onClose,
}: {
  scheme: Scheme;
  conflict: Conflict;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const toBody = (values: { management: string }) => ({ management: orNull(values.management) });
  const form = useForm<{ management: string }>({
    initialValues: { management: conflict.management ?? '' },
    validate: validateWith(conflictChange, toBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const body = toBody(values);
    if (body.management !== conflict.management) {
      await api(apiRoutes.conflicts.update, { params: { id: conflict.id }, body });
      notifySuccess(`How the conflict of ${nameOf(conflict)} is managed is recorded.`);
      await refresh('conflicts');
    }
    onClose();
  });
  return (
    <FormShell
      label="How a conflict of interest is managed"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save"
      onCancel={onClose}
    >
      <Text>{nameOf(conflict)}</Text>
      <Written>{conflict.interest}</Written>
      <Textarea
        label="How it is managed"
        autosize
        minRows={3}
        data-autofocus
        {...form.getInputProps('management')}
      />
    </FormShell>
  );
}

/** The day the conflict ended: it stays in the register, shown as closed. */
function CloseForm({
  scheme,
  conflict,
  onClose,
}: {
  scheme: Scheme;
  conflict: Conflict;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const form = useForm<{ closedOn: string }>({
    initialValues: { closedOn: today() },
    validate: validateWithDates(conflictChange, (values) => values, {
      closedOn: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const closed = await api(apiRoutes.conflicts.update, {
      params: { id: conflict.id },
      body: { closedOn: values.closedOn },
    });
    notifySuccess(
      `The conflict of ${nameOf(conflict)} is closed on ${shownDate(closed.closedOn)}.`,
    );
    await refresh('conflicts');
    onClose();
  });
  return (
    <FormShell
      label="Close a conflict of interest"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Close conflict"
      onCancel={onClose}
    >
      <Text>
        When did the conflict of {nameOf(conflict)} end? It stays in the register, shown as closed.
      </Text>
      <IrishDateInput
        label="Closed on"
        required
        maxDate={today()}
        data-autofocus
        {...form.getInputProps('closedOn')}
      />
    </FormShell>
  );
}
