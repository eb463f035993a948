import {
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  type NativeSelectProps,
  NumberInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type GetInputPropsReturnType, useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  keyFunctionHolderChange,
  keyFunctionHolderInput,
  trusteeChange,
  trusteeInput,
} from '../../../contracts/governance';
import {
  chairRefusal,
  FITNESS_AND_PROBITY,
  FITNESS_NAMES,
  type FitnessAndProbity,
  GOVERNANCE_RULES,
  KEY_FUNCTION_NAMES,
  KEY_FUNCTIONS,
  type KeyFunction,
  requiredKeyFunctions,
  TRUSTEE_KIND_NAMES,
  TRUSTEE_KINDS,
  type TrusteeKind,
} from '../../../contracts/governance-rules';
import { todayInIreland } from '../../../contracts/irish-dates';
import { counted } from '../../../contracts/plain-english';
import { api } from '../../api/client';
import type { KeyFunctionHolder, Scheme, Trustee } from '../../api/types';
import { can, canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput, type IrishDateInputProps } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { useRefreshDocuments } from '../documents/documentQueries';
import { StatusBadge } from './ComplianceParts';
import {
  DocumentChoiceField,
  DocumentLinkCell,
  type PendingDocument,
  sendPendingDocument,
} from './DocumentLink';
import { FormModal, FormShell } from './GovernanceForm';
import { holderNameOf, orNull, shownDate, validateWithDates } from './governance-helpers';
import {
  type Register,
  registerKey,
  useCompliance,
  useRefreshGovernance,
} from './governanceQueries';
import { TrusteeTrainingDialog } from './TrusteeTraining';

const today = () => todayInIreland(new Date());

/** An appointment that can be ended or deleted: a trustee or a key function holder. */
interface Appointment {
  id: string;
  endedOn: string | null;
}

/**
 * What ending or deleting one kind of appointment needs: its register's routes (ending one is a
 * change of it, checked by that route's body schema), its words and its list.
 */
interface AppointmentKind<T extends Appointment> {
  routes: typeof apiRoutes.trustees | typeof apiRoutes.keyFunctionHolders;
  nameOf: (entry: T) => string;
  register: Register;
}

const TRUSTEES: AppointmentKind<Trustee> = {
  routes: apiRoutes.trustees,
  nameOf: (trustee) => trustee.name,
  register: 'trustees',
};

const HOLDERS: AppointmentKind<KeyFunctionHolder> = {
  routes: apiRoutes.keyFunctionHolders,
  nameOf: holderNameOf,
  register: 'holders',
};

/**
 * The End appointment and Delete buttons of an appointment, and their dialogs. Ending keeps the
 * appointment on record with the day it ended; deleting is for one entered in error.
 */
function useAppointmentActions<T extends Appointment>(
  scheme: Scheme,
  kind: AppointmentKind<T>,
  actions: { update: boolean; remove: boolean },
  /** A button of the register's own, shown first where the person may change the entry. */
  extra?: (entry: T) => ReactNode,
) {
  const refresh = useRefreshGovernance(scheme.id);
  const [ending, setEnding] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const column: Column<T> | null =
    actions.update || actions.remove
      ? {
          key: 'actions',
          header: 'Actions',
          render: (entry) => (
            <Group gap="xs" wrap="nowrap">
              {actions.update && extra?.(entry)}
              {actions.update && entry.endedOn === null && (
                <Button
                  size="compact-sm"
                  variant="default"
                  onClick={() => setEnding(entry)}
                  aria-label={`End the appointment of ${kind.nameOf(entry)}`}
                >
                  End appointment
                </Button>
              )}
              {actions.remove && (
                <Button
                  size="compact-sm"
                  variant="light"
                  color="red"
                  onClick={() => setDeleting(entry)}
                  aria-label={`Delete ${kind.nameOf(entry)}`}
                >
                  Delete
                </Button>
              )}
            </Group>
          ),
        }
      : null;
  const dialogs = (
    <>
      <FormModal opened={ending !== null} title="End appointment" onClose={() => setEnding(null)}>
        {ending && (
          <EndAppointmentForm
            entry={ending}
            kind={kind}
            onDone={async () => {
              setEnding(null);
              await refresh(kind.register);
            }}
            onCancel={() => setEnding(null)}
          />
        )}
      </FormModal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete appointment"
        confirmLabel="Delete"
        onConfirm={async () => {
          if (!deleting) return;
          await api(kind.routes.remove, { params: { id: deleting.id } });
          notifySuccess(`${deleting ? kind.nameOf(deleting) : 'The appointment'} deleted.`);
          await refresh(kind.register);
        }}
      >
        <Text>
          Delete {deleting ? kind.nameOf(deleting) : 'this appointment'}? Delete only an entry made
          in error: to record that an appointment ended, end it instead, so the register keeps it.
        </Text>
      </ConfirmModal>
    </>
  );
  return { column, dialogs };
}

function EndAppointmentForm<T extends Appointment>({
  entry,
  kind,
  onDone,
  onCancel,
}: {
  entry: T;
  kind: AppointmentKind<T>;
  onDone: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const form = useForm<{ endedOn: string }>({
    initialValues: { endedOn: today() },
    validate: validateWithDates(kind.routes.update.body, (values) => values, {
      endedOn: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(kind.routes.update, {
      params: { id: entry.id },
      body: { endedOn: values.endedOn },
    });
    notifySuccess(`The appointment of ${kind.nameOf(entry)} ended.`);
    await onDone();
  });
  return (
    <FormShell
      label="End appointment"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="End appointment"
      onCancel={onCancel}
    >
      <Text>When did the appointment of {kind.nameOf(entry)} end?</Text>
      <IrishDateInput label="Ended on" required data-autofocus {...form.getInputProps('endedOn')} />
    </FormShell>
  );
}

// Trustees.

interface TrusteeValues {
  name: string;
  kind: TrusteeKind;
  directorCount: number | string;
  appointedOn: string;
  fitnessAndProbity: FitnessAndProbity;
  email: string;
  phone: string;
  chair: boolean;
}

const trusteeBody = (values: TrusteeValues) => ({
  name: values.name,
  kind: values.kind,
  directorCount:
    values.kind === 'corporate' && typeof values.directorCount === 'number'
      ? values.directorCount
      : null,
  appointedOn: values.appointedOn,
  fitnessAndProbity: values.fitnessAndProbity,
  email: orNull(values.email),
  phone: orNull(values.phone),
  chair: values.chair,
});

/**
 * A trustee's e-mail address and phone number: personal data, shown to those who read the
 * register and kept out of the audit log (docs/decisions/0133-governance-registers-completed.md).
 */
function ContactFields({
  email,
  phone,
}: {
  email: GetInputPropsReturnType;
  phone: GetInputPropsReturnType;
}) {
  return (
    <>
      <TextInput label="E-mail address (optional)" type="email" autoComplete="off" {...email} />
      <TextInput label="Phone number (optional)" type="tel" autoComplete="off" {...phone} />
    </>
  );
}

/**
 * Whether the trustee chairs the board: one trustee at a time, so naming this one takes the chair
 * from the one who holds it (GOVERNANCE_RULES.trusteeChair). Offered only where the rule lets this
 * trustee chair today; otherwise its reason stands in the field's place.
 */
function ChairCheckbox({
  refusal,
  ...props
}: GetInputPropsReturnType & { refusal: string | null }) {
  return (
    <Checkbox
      label="Chairs the board of trustees"
      description={refusal ?? GOVERNANCE_RULES.trusteeChair.citation}
      disabled={refusal !== null}
      {...props}
    />
  );
}

/**
 * A trustee as the register names them: the name, "Chair" beside the chair's, and under it their
 * contact details, each on its line, where they are recorded.
 */
function TrusteeCell({ trustee }: { trustee: Trustee }) {
  return (
    <Stack gap={0}>
      <Group gap="xs" wrap="nowrap">
        <Text size="sm">{trustee.name}</Text>
        {trustee.chair && (
          <Badge variant="light" miw="max-content">
            Chair
          </Badge>
        )}
      </Group>
      {trustee.email && (
        <Text size="sm" c="dimmed">
          {trustee.email}
        </Text>
      )}
      {trustee.phone && (
        <Text size="sm" c="dimmed">
          {trustee.phone}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The outcome of the fitness and probity assessment, which Directive (EU) 2016/2341 Art. 22 asks
 * of trustees and key function holders alike, as a list offers it.
 */
function FitnessSelect(props: Omit<NativeSelectProps, 'label' | 'data'>) {
  return (
    <NativeSelect
      label="Fitness and probity"
      data={FITNESS_AND_PROBITY.map((value) => ({ value, label: FITNESS_NAMES[value] }))}
      {...props}
    />
  );
}

export function TrusteesRegister({ scheme, history }: { scheme: Scheme; history: boolean }) {
  const session = useSignedIn();
  const [appointing, setAppointing] = useState(false);
  const [training, setTraining] = useState<Trustee | null>(null);
  const [updating, setUpdating] = useState<Trustee | null>(null);
  // Each serving trustee's training duty, as the scheme's standing states it.
  const compliance = useCompliance(scheme.id);
  const trainingDuty = (trustee: Trustee) =>
    compliance.data?.obligations.find(
      (obligation) => obligation.kind === 'trustee_training' && obligation.subjectId === trustee.id,
    );
  const { column, dialogs } = useAppointmentActions(
    scheme,
    TRUSTEES,
    {
      update: canChange(session, 'trustee.update', scheme),
      remove: canChange(session, 'trustee.delete', scheme),
    },
    (trustee) => (
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => setUpdating(trustee)}
        aria-label={`Update ${TRUSTEES.nameOf(trustee)}`}
      >
        Update
      </Button>
    ),
  );
  const columns: Column<Trustee>[] = [
    {
      key: 'name',
      header: 'Trustee',
      render: (trustee) => <TrusteeCell trustee={trustee} />,
    },
    {
      key: 'kind',
      header: 'Kind',
      render: (trustee) =>
        trustee.kind === 'corporate' && trustee.directorCount !== null
          ? `${TRUSTEE_KIND_NAMES.corporate} (${counted(trustee.directorCount, 'director')})`
          : TRUSTEE_KIND_NAMES[trustee.kind],
    },
    {
      key: 'appointedOn',
      header: 'Appointed on',
      render: (trustee) => shownDate(trustee.appointedOn),
      sortValue: (trustee) => trustee.appointedOn,
    },
    {
      key: 'fitness',
      header: 'Fitness and probity',
      render: (trustee) => FITNESS_NAMES[trustee.fitnessAndProbity],
    },
    { key: 'endedOn', header: 'Ended on', render: (trustee) => shownDate(trustee.endedOn) },
  ];
  if (can(session, 'trustee_training.list', scheme)) {
    columns.push({
      key: 'training',
      header: 'Training',
      render: (trustee) => {
        const duty = trainingDuty(trustee);
        return (
          <Group gap="xs" wrap="nowrap">
            {duty && <StatusBadge status={duty.status} />}
            {duty?.dueOn && <Text size="sm">Due by {shownDate(duty.dueOn)}</Text>}
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setTraining(trustee)}
              aria-label={`Training of ${trustee.name}`}
              // Its word whole, however narrow the table: the due date beside it wraps instead.
              style={{ flexShrink: 0 }}
            >
              Training
            </Button>
          </Group>
        );
      },
    });
  }
  if (column) columns.push(column);
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-trustees">
      <PageHeading title="Trustees" order={3} id="governance-trustees">
        {canChange(session, 'trustee.create', scheme) && (
          <Button variant="light" onClick={() => setAppointing(true)}>
            Appoint a trustee
          </Button>
        )}
      </PageHeading>
      <CursorTable
        queryKey={[...registerKey(scheme.id, 'trustees'), { history }]}
        route={apiRoutes.trustees.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100, includeHistory: history ? 'true' : 'false' }}
        columns={columns}
        caption={history ? 'Trustees, past and present' : 'Trustees serving today'}
        empty="No trustee is recorded."
      />
      <FormModal opened={appointing} title="Appoint a trustee" onClose={() => setAppointing(false)}>
        <TrusteeForm scheme={scheme} onClose={() => setAppointing(false)} />
      </FormModal>
      <FormModal
        opened={updating !== null}
        title="Update a trustee"
        onClose={() => setUpdating(null)}
      >
        {updating && (
          <TrusteeUpdateForm scheme={scheme} trustee={updating} onClose={() => setUpdating(null)} />
        )}
      </FormModal>
      <TrusteeTrainingDialog
        scheme={scheme}
        trustee={training}
        obligation={training ? trainingDuty(training) : undefined}
        onClose={() => setTraining(null)}
      />
      {dialogs}
    </Stack>
  );
}

function TrusteeForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const refresh = useRefreshGovernance(scheme.id);
  const form = useForm<TrusteeValues>({
    initialValues: {
      name: '',
      kind: 'individual',
      directorCount: '',
      appointedOn: today(),
      fitnessAndProbity: 'pending',
      email: '',
      phone: '',
      chair: false,
    },
    validate: validateWithDates(trusteeInput, trusteeBody, { appointedOn: { required: true } }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const trustee = await api(apiRoutes.trustees.create, {
      params: { id: scheme.id },
      body: trusteeBody(values),
    });
    notifySuccess(
      trustee.chair
        ? `${trustee.name} appointed as a trustee, and chairs the board.`
        : `${trustee.name} appointed as a trustee.`,
    );
    await refresh('trustees');
    onClose();
  });
  return (
    <FormShell
      label="Appoint a trustee"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Appoint"
      onCancel={onClose}
    >
      <TextInput label="Trustee name" required data-autofocus {...form.getInputProps('name')} />
      <NativeSelect
        label="Kind of trustee"
        data={TRUSTEE_KINDS.map((kind) => ({ value: kind, label: TRUSTEE_KIND_NAMES[kind] }))}
        {...form.getInputProps('kind')}
      />
      {form.values.kind === 'corporate' && (
        <NumberInput
          label="Number of directors"
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('directorCount')}
        />
      )}
      <IrishDateInput label="Appointed on" required {...form.getInputProps('appointedOn')} />
      <FitnessSelect {...form.getInputProps('fitnessAndProbity')} />
      <ContactFields email={form.getInputProps('email')} phone={form.getInputProps('phone')} />
      <ChairCheckbox refusal={null} {...form.getInputProps('chair', { type: 'checkbox' })} />
    </FormShell>
  );
}

type TrusteeUpdateValues = Pick<TrusteeValues, 'fitnessAndProbity' | 'email' | 'phone' | 'chair'>;

const trusteeUpdateBody = (values: TrusteeUpdateValues) => ({
  fitnessAndProbity: values.fitnessAndProbity,
  email: orNull(values.email),
  phone: orNull(values.phone),
  chair: values.chair,
});

/**
 * What changes while a trustee serves: the outcome of the fitness and probity assessment, which
 * Art. 22 asks of those who effectively run the scheme, the trustees too; their contact details;
 * and whether they chair the board. Only what changed is sent, so the audit record names it.
 */
function TrusteeUpdateForm({
  scheme,
  trustee,
  onClose,
}: {
  scheme: Scheme;
  trustee: Trustee;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const form = useForm<TrusteeUpdateValues>({
    initialValues: {
      fitnessAndProbity: trustee.fitnessAndProbity,
      email: trustee.email ?? '',
      phone: trustee.phone ?? '',
      chair: trustee.chair,
    },
    validate: validateWith(trusteeChange, trusteeUpdateBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const body = trusteeUpdateBody(values);
    const changed = Object.fromEntries(
      Object.entries(body).filter(([key, value]) => trustee[key as keyof typeof body] !== value),
    );
    if (Object.keys(changed).length > 0) {
      const saved = await api(apiRoutes.trustees.update, {
        params: { id: trustee.id },
        body: changed,
      });
      notifySuccess(
        saved.chair && !trustee.chair
          ? `${saved.name} now chairs the board.`
          : changed.fitnessAndProbity !== undefined
            ? `${saved.name}: fitness and probity ${FITNESS_NAMES[saved.fitnessAndProbity].toLowerCase()}.`
            : `${saved.name} updated.`,
      );
      await refresh('trustees');
    }
    onClose();
  });
  // A trustee who chairs may be relieved of it whatever the day; naming one follows the rule.
  const refusal = trustee.chair ? null : chairRefusal(trustee, today());
  return (
    <FormShell
      label="Update a trustee"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save"
      onCancel={onClose}
    >
      <Text>{trustee.name}</Text>
      <FitnessSelect data-autofocus {...form.getInputProps('fitnessAndProbity')} />
      <ContactFields email={form.getInputProps('email')} phone={form.getInputProps('phone')} />
      <ChairCheckbox refusal={refusal} {...form.getInputProps('chair', { type: 'checkbox' })} />
    </FormShell>
  );
}

// Key function holders.

interface HolderValues {
  function: KeyFunction | '';
  holderName: string;
  holderEmail: string;
  appointedOn: string;
  fitnessAndProbity: FitnessAndProbity;
  alsoServesEmployer: boolean;
  conflictsProtocol: string;
  notifiedOn: string;
  /** The letter of appointment: one of the scheme's documents, or none yet. */
  documentId: string;
}

const holderBody = (values: HolderValues) => ({
  function: values.function === '' ? undefined : values.function,
  holderName: values.holderName,
  holderEmail: orNull(values.holderEmail),
  appointedOn: values.appointedOn,
  fitnessAndProbity: values.fitnessAndProbity,
  alsoServesEmployer: values.alsoServesEmployer,
  conflictsProtocol: values.alsoServesEmployer ? orNull(values.conflictsProtocol) : null,
  notifiedOn: orNull(values.notifiedOn),
  documentId: orNull(values.documentId),
});

/**
 * The day a key function holder's appointment was notified to the Pensions Authority (Directive
 * (EU) 2016/2341 Art. 22), if it has been.
 */
function NotifiedOnInput(props: Omit<IrishDateInputProps, 'label'>) {
  return (
    <IrishDateInput
      label="Notified to the Pensions Authority on"
      description="Day first: DD/MM/YYYY. Leave empty until the appointment is notified"
      maxDate={today()}
      {...props}
    />
  );
}

export function KeyFunctionHoldersRegister({
  scheme,
  history,
}: {
  scheme: Scheme;
  history: boolean;
}) {
  const session = useSignedIn();
  const [appointing, setAppointing] = useState(false);
  const [updating, setUpdating] = useState<KeyFunctionHolder | null>(null);
  const { column, dialogs } = useAppointmentActions(
    scheme,
    HOLDERS,
    {
      update: canChange(session, 'kfh.update', scheme),
      remove: canChange(session, 'kfh.delete', scheme),
    },
    (holder) => (
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => setUpdating(holder)}
        aria-label={`Update the standing of ${HOLDERS.nameOf(holder)}`}
      >
        Update
      </Button>
    ),
  );
  const required = requiredKeyFunctions(scheme.type).map((fn) => KEY_FUNCTION_NAMES[fn]);
  const columns: Column<KeyFunctionHolder>[] = [
    {
      key: 'function',
      header: 'Key function',
      render: (holder) => KEY_FUNCTION_NAMES[holder.function],
      sortValue: (holder) => holder.function,
    },
    {
      key: 'holder',
      header: 'Holder',
      render: (holder) =>
        holder.holderEmail ? `${holder.holderName} (${holder.holderEmail})` : holder.holderName,
    },
    {
      key: 'appointedOn',
      header: 'Appointed on',
      render: (holder) => shownDate(holder.appointedOn),
      sortValue: (holder) => holder.appointedOn,
    },
    {
      key: 'fitness',
      header: 'Fitness and probity',
      render: (holder) => FITNESS_NAMES[holder.fitnessAndProbity],
    },
    {
      key: 'notifiedOn',
      header: 'Notified to the Pensions Authority',
      render: (holder) => (holder.notifiedOn ? shownDate(holder.notifiedOn) : 'Not yet'),
    },
    {
      key: 'employer',
      header: 'Also serves the employer',
      render: (holder) =>
        !holder.alsoServesEmployer
          ? 'No'
          : holder.conflictsProtocol
            ? 'Yes, conflicts protocol recorded'
            : 'Yes, no conflicts protocol',
    },
    { key: 'endedOn', header: 'Ended on', render: (holder) => shownDate(holder.endedOn) },
    {
      key: 'document',
      header: 'Letter of appointment',
      render: (holder) => (
        <DocumentLinkCell
          scheme={scheme}
          entry={holder}
          target={{
            register: 'key_function_holder',
            route: apiRoutes.keyFunctionHolders.update,
            id: holder.id,
            list: 'holders',
            name: HOLDERS.nameOf(holder),
          }}
          canChange={canChange(session, 'kfh.update', scheme)}
        />
      ),
    },
  ];
  if (column) columns.push(column);
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-holders">
      <PageHeading title="Key function holders" order={3} id="governance-holders">
        {canChange(session, 'kfh.create', scheme) && (
          <Button variant="light" onClick={() => setAppointing(true)}>
            Appoint a key function holder
          </Button>
        )}
      </PageHeading>
      <Text size="sm">This scheme needs holders of: {required.join(', ')}.</Text>
      <CursorTable
        queryKey={[...registerKey(scheme.id, 'holders'), { history }]}
        route={apiRoutes.keyFunctionHolders.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100, includeHistory: history ? 'true' : 'false' }}
        columns={columns}
        caption={
          history ? 'Key function holders, past and present' : 'Key function holders serving today'
        }
        empty="No key function holder is recorded."
      />
      <FormModal
        opened={appointing}
        title="Appoint a key function holder"
        onClose={() => setAppointing(false)}
      >
        <HolderForm scheme={scheme} onClose={() => setAppointing(false)} />
      </FormModal>
      <FormModal
        opened={updating !== null}
        title="Update a key function holder"
        onClose={() => setUpdating(null)}
      >
        {updating && (
          <HolderStandingForm scheme={scheme} holder={updating} onClose={() => setUpdating(null)} />
        )}
      </FormModal>
      {dialogs}
    </Stack>
  );
}

function HolderForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const refresh = useRefreshGovernance(scheme.id);
  const session = useSignedIn();
  const refreshDocuments = useRefreshDocuments(scheme.id);
  const [letter, setLetter] = useState<PendingDocument>({ file: null, problem: null });
  const form = useForm<HolderValues>({
    initialValues: {
      function: '',
      holderName: '',
      holderEmail: '',
      appointedOn: today(),
      fitnessAndProbity: 'pending',
      alsoServesEmployer: false,
      conflictsProtocol: '',
      notifiedOn: '',
      documentId: '',
    },
    validate: validateWithDates(keyFunctionHolderInput, holderBody, {
      appointedOn: { required: true },
      notifiedOn: { required: false },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (letter.problem) return;
    // A letter chosen here is uploaded first; kept as the choice, should the appointment be refused.
    const uploaded = await sendPendingDocument(scheme, 'key_function_holder', letter, setLetter);
    if (uploaded === 'refused') return;
    if (uploaded !== null) {
      form.setFieldValue('documentId', uploaded);
      await refreshDocuments();
    }
    const holder = await api(apiRoutes.keyFunctionHolders.create, {
      params: { id: scheme.id },
      body: holderBody({ ...values, documentId: uploaded ?? values.documentId }),
    });
    const fn = KEY_FUNCTION_NAMES[holder.function].toLowerCase();
    notifySuccess(
      holder.document
        ? `${holder.holderName} appointed to the ${fn} function, with the letter of appointment.`
        : `${holder.holderName} appointed to the ${fn} function.`,
    );
    await refresh('holders');
    onClose();
  });
  return (
    <FormShell
      label="Appoint a key function holder"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Appoint"
      onCancel={onClose}
    >
      <NativeSelect
        label="Key function"
        required
        data-autofocus
        data={[
          { value: '', label: 'Choose a key function' },
          ...KEY_FUNCTIONS.map((fn) => ({ value: fn, label: KEY_FUNCTION_NAMES[fn] })),
        ]}
        {...form.getInputProps('function')}
      />
      <TextInput label="Holder’s name" required {...form.getInputProps('holderName')} />
      <TextInput
        label="Holder’s e-mail address (optional)"
        type="email"
        autoComplete="off"
        {...form.getInputProps('holderEmail')}
      />
      <IrishDateInput label="Appointed on" required {...form.getInputProps('appointedOn')} />
      <FitnessSelect {...form.getInputProps('fitnessAndProbity')} />
      <NotifiedOnInput {...form.getInputProps('notifiedOn')} />
      <Checkbox
        label="The holder also carries out this function for the employer"
        {...form.getInputProps('alsoServesEmployer', { type: 'checkbox' })}
      />
      {form.values.alsoServesEmployer && (
        <Textarea
          label="Conflicts protocol"
          description="How conflicts of interest with the employer are prevented or managed"
          autosize
          minRows={3}
          {...form.getInputProps('conflictsProtocol')}
        />
      )}
      {can(session, 'document.upload', scheme) && (
        <DocumentChoiceField
          scheme={scheme}
          register="key_function_holder"
          label="Letter of appointment"
          choice={form.getInputProps('documentId')}
          pending={letter}
          onPending={setLetter}
        />
      )}
    </FormShell>
  );
}

type StandingValues = Pick<
  HolderValues,
  'fitnessAndProbity' | 'notifiedOn' | 'alsoServesEmployer' | 'conflictsProtocol'
>;

const standingBody = (values: StandingValues) => ({
  fitnessAndProbity: values.fitnessAndProbity,
  notifiedOn: orNull(values.notifiedOn),
  alsoServesEmployer: values.alsoServesEmployer,
  conflictsProtocol: values.alsoServesEmployer ? orNull(values.conflictsProtocol) : null,
});

/**
 * What changes while a holder serves: the outcome of the fitness and probity assessment, the day
 * the appointment was notified to the Pensions Authority, and whether they also serve the
 * employer, with the protocol that manages that conflict. Only what changed is sent, so the audit
 * record names it.
 */
function HolderStandingForm({
  scheme,
  holder,
  onClose,
}: {
  scheme: Scheme;
  holder: KeyFunctionHolder;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const form = useForm<StandingValues>({
    initialValues: {
      fitnessAndProbity: holder.fitnessAndProbity,
      notifiedOn: holder.notifiedOn ?? '',
      alsoServesEmployer: holder.alsoServesEmployer,
      conflictsProtocol: holder.conflictsProtocol ?? '',
    },
    validate: validateWithDates(keyFunctionHolderChange, standingBody, {
      notifiedOn: { required: false },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const body = standingBody(values);
    const changed = Object.fromEntries(
      Object.entries(body).filter(([key, value]) => holder[key as keyof typeof body] !== value),
    );
    if (Object.keys(changed).length > 0) {
      await api(apiRoutes.keyFunctionHolders.update, {
        params: { id: holder.id },
        body: changed,
      });
      notifySuccess(`${HOLDERS.nameOf(holder)} updated.`);
      await refresh('holders');
    }
    onClose();
  });
  return (
    <FormShell
      label="Update a key function holder"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save"
      onCancel={onClose}
    >
      <Text>{HOLDERS.nameOf(holder)}</Text>
      <FitnessSelect data-autofocus {...form.getInputProps('fitnessAndProbity')} />
      <NotifiedOnInput {...form.getInputProps('notifiedOn')} />
      <Checkbox
        label="The holder also carries out this function for the employer"
        {...form.getInputProps('alsoServesEmployer', { type: 'checkbox' })}
      />
      {form.values.alsoServesEmployer && (
        <Textarea
          label="Conflicts protocol"
          description="How conflicts of interest with the employer are prevented or managed"
          autosize
          minRows={3}
          {...form.getInputProps('conflictsProtocol')}
        />
      )}
    </FormShell>
  );
}
