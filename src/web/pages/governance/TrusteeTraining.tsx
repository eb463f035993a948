import { Alert, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { apiRoutes } from '../../../contracts/api-routes';
import { trusteeTrainingInput } from '../../../contracts/governance';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import {
  SCHEME_YEAR_RULES,
  TRAINING_EVERY_YEARS,
  TRAINING_FIRST_WITHIN_MONTHS,
} from '../../../contracts/scheme-year-rules';
import { api } from '../../api/client';
import type { Obligation, Scheme, Trustee, TrusteeTraining } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { StatusBadge } from './ComplianceParts';
import { orNull, shownDate, validateWithDates } from './governance-helpers';
import { registerKey, useRefreshGovernance } from './governanceQueries';

/**
 * A trustee's training (Pensions Act 1990 s.59AA; docs/decisions/0122-the-scheme-year.md): what is on
 * record, and a form to record more. A corporate trustee's directors are each trained, and each
 * training names the director.
 */
export function TrusteeTrainingDialog({
  scheme,
  trustee,
  obligation,
  onClose,
}: {
  scheme: Scheme;
  /** The trustee whose training is open, or null while the dialog is closed. */
  trustee: Trustee | null;
  /** The trustee's training duty as the compliance view states it, while they serve. */
  obligation: Obligation | undefined;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={trustee !== null}
      onClose={onClose}
      title={trustee ? `Training of ${trustee.name}` : 'Training'}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Mounted only while open, so each opening starts from a fresh form. */}
      {trustee && (
        <TrainingRecord
          scheme={scheme}
          trustee={trustee}
          obligation={obligation}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function TrainingRecord({
  scheme,
  trustee,
  obligation,
  onClose,
}: {
  scheme: Scheme;
  trustee: Trustee;
  obligation: Obligation | undefined;
  onClose: () => void;
}) {
  const session = useSignedIn();
  const corporate = trustee.kind === 'corporate';
  const columns: Column<TrusteeTraining>[] = [
    {
      key: 'completedOn',
      header: 'Completed on',
      render: (training) => shownDate(training.completedOn),
      sortValue: (training) => training.completedOn,
    },
    ...(corporate
      ? [
          {
            key: 'director',
            header: 'Director',
            render: (training: TrusteeTraining) => training.directorName ?? '—',
          },
        ]
      : []),
    { key: 'topic', header: 'Topic', render: (training) => training.topic ?? '—' },
  ];
  return (
    <Stack gap="md">
      <Text size="sm">
        {corporate
          ? `Each director of a corporate trustee is trained within ${TRAINING_FIRST_WITHIN_MONTHS} months of the trustee’s appointment, then at least every ${TRAINING_EVERY_YEARS} years. `
          : `A trustee is trained within ${TRAINING_FIRST_WITHIN_MONTHS} months of appointment, then at least every ${TRAINING_EVERY_YEARS} years. `}
        {sourceInWords(SCHEME_YEAR_RULES.trusteeTraining)}.
      </Text>
      {obligation && (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <StatusBadge status={obligation.status} />
          <Text size="sm">{obligation.reason}</Text>
        </Group>
      )}
      <CursorTable
        queryKey={[...registerKey(scheme.id, 'training'), trustee.id]}
        route={apiRoutes.trusteeTraining.listOfTrustee}
        params={{ id: trustee.id }}
        query={{ limit: 100 }}
        columns={columns}
        caption={`Training recorded for ${trustee.name}`}
        empty="No training is recorded."
      />
      {canChange(session, 'trustee_training.create', scheme) ? (
        <TrainingForm scheme={scheme} trustee={trustee} onClose={onClose} />
      ) : (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      )}
    </Stack>
  );
}

interface TrainingValues {
  completedOn: string;
  directorName: string;
  topic: string;
}

/**
 * Only a corporate trustee's training names a director. Whether one must be named is the API's to
 * say: its sentence shows under the field.
 */
const trainingBody = (trustee: Trustee) => (values: TrainingValues) => ({
  completedOn: values.completedOn,
  topic: orNull(values.topic),
  ...(trustee.kind === 'corporate' ? { directorName: orNull(values.directorName) } : {}),
});

/** Records one training; the dialog stays open for the next director's. */
function TrainingForm({
  scheme,
  trustee,
  onClose,
}: {
  scheme: Scheme;
  trustee: Trustee;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const today = todayInIreland(new Date());
  const toBody = trainingBody(trustee);
  const form = useForm<TrainingValues>({
    initialValues: { completedOn: today, directorName: '', topic: '' },
    validate: validateWithDates(trusteeTrainingInput, toBody, {
      completedOn: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const training = await api(apiRoutes.trusteeTraining.create, {
      params: { id: trustee.id },
      body: toBody(values),
    });
    notifySuccess(
      training.directorName
        ? `Training of ${training.directorName} (${trustee.name}) on ${shownDate(training.completedOn)} recorded.`
        : `Training of ${trustee.name} on ${shownDate(training.completedOn)} recorded.`,
    );
    form.reset();
    await refresh('training');
  });
  return (
    <form onSubmit={submit} noValidate aria-labelledby="record-training">
      <Stack gap="sm">
        <Title order={3} size="h4" id="record-training">
          Record training
        </Title>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <IrishDateInput
          label="Completed on"
          required
          maxDate={today}
          data-autofocus
          {...form.getInputProps('completedOn')}
        />
        {trustee.kind === 'corporate' && (
          <TextInput
            label="Director trained"
            description="The director’s name, the same way each time"
            required
            {...form.getInputProps('directorName')}
          />
        )}
        <TextInput label="Topic (optional)" {...form.getInputProps('topic')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Close
          </Button>
          <Button type="submit" loading={busy}>
            Record training
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
