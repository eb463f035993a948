import {
  Button,
  Fieldset,
  Group,
  Modal,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import {
  type LifecycleView,
  PAYOUT_STATUS_NAMES,
  type PayoutView,
} from '../../../contracts/member-lifecycle';
import {
  LEAVING_OPTION_NAMES,
  type LeavingOption,
  STATUS_CHANGE_NAMES,
} from '../../../contracts/member-lifecycle-rules';
import { euroFieldError, formatCents, readEuro } from '../../../contracts/money';
import { api } from '../../api/client';
import type { Member } from '../../api/types';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { formatDate } from '../../format';
import { FormShell } from '../governance/GovernanceForm';
import { LeavingOptions } from './LeavingOptions';
import { choicesOffered, type LifecycleStep, latestUndoable, type May } from './lifecycle-steps';
import { lifecycleKey, memberKey } from './member-page-cache';

/** What every step's dialog is given. */
interface StepProps {
  member: Member;
  lifecycle: LifecycleView;
  /** The scheme's type: a DB scheme's transfer value is given, a DC one's is its units'. */
  schemeType: string;
  may: May;
  onClose: () => void;
}

/** Each dialog's title, which is also its name for assistive technology. */
export const STEP_TITLES: Record<LifecycleStep, string> = {
  leave: 'Leave service',
  choose: 'Record the leaver’s choice',
  retire: 'Retire',
  death: 'Record a death',
  rejoin: 'Rejoin',
  undo: 'Undo the latest change',
};

const required = (message: string) => (value: string) => (value.trim() === '' ? message : null);

/**
 * Takes a step's answer, the member's lifecycle as it now stands, and reads again what the change
 * touches: the record's status, the money a payout sells, the scheme's list of members.
 */
function useApplyAnswer(member: Member) {
  const client = useQueryClient();
  return (answer: LifecycleView, message: string) => {
    client.setQueryData(lifecycleKey(member.id), answer);
    notifySuccess(message);
    void client.invalidateQueries({
      queryKey: memberKey(member.id),
      predicate: (query) => query.queryKey[2] !== 'lifecycle',
    });
    void client.invalidateQueries({ queryKey: ['schemes', member.schemeId, 'members'] });
  };
}

/** A payout as a step's answer reports it: the value at its day, and where it stands. */
function PayoutFigures({ payout }: { payout: PayoutView }) {
  return (
    <Paper withBorder p="md" role="status">
      {payout.valueAtDateCents === null ? (
        <Text>The scheme holds no units for the member: there is no value of funds to sell.</Text>
      ) : (
        <Text>
          The member’s funds were worth{' '}
          <strong data-testid="payout-value">{formatCents(payout.valueAtDateCents)}</strong> on{' '}
          {formatDate(payout.fromOn)}, at the latest prices. Their units are sold at the first
          prices on or after that day, so what is paid may differ.
        </Text>
      )}
      <Text>
        {PAYOUT_STATUS_NAMES[payout.status]}
        {payout.paidCents !== null && `: ${formatCents(payout.paidCents)}`}
        {payout.paidOn !== null && ` on ${formatDate(payout.paidOn)}`}.
      </Text>
    </Paper>
  );
}

/** The day of leaving: the first step of leaving service. */
function LeaveForm({
  member,
  onLeft,
  onCancel,
}: {
  member: Member;
  onLeft: (answer: LifecycleView) => void;
  onCancel: () => void;
}) {
  const form = useForm<{ leftOn: string }>({
    initialValues: { leftOn: '' },
    validate: { leftOn: irishDateRule({ required: true }) },
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ leftOn }) => {
    onLeft(await api(apiRoutes.lifecycle.leave, { params: { id: member.id }, body: { leftOn } }));
  });
  return (
    <FormShell
      label="Day of leaving"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record leaving"
      onCancel={onCancel}
    >
      <Text size="sm">
        The member’s qualifying service is counted to this day, both days counted, and what they may
        do is worked out from it.
      </Text>
      <IrishDateInput
        label="Left service on"
        required
        minDate={member.statusOn ?? member.dateJoined}
        maxDate={todayInIreland(new Date())}
        data-autofocus
        {...form.getInputProps('leftOn')}
      />
    </FormShell>
  );
}

interface ChoiceValues {
  choice: LeavingOption | '';
  on: string;
  transferredOn: string;
  receivingArrangement: string;
  amountCents: string;
}

/** The leaver's choice: a preserved benefit, a refund from a day, or a transfer out. */
function ChoiceForm({ member, lifecycle, schemeType, may, onClose }: StepProps) {
  const apply = useApplyAnswer(member);
  const choices = choicesOffered(lifecycle, may);
  const givesAmount = schemeType === 'DB';
  const form = useForm<ChoiceValues>({
    mode: 'controlled',
    initialValues: {
      choice: choices.length === 1 ? (choices[0] as LeavingOption) : '',
      on: '',
      transferredOn: '',
      receivingArrangement: '',
      amountCents: '',
    },
    validate: {
      choice: required('Choose one of the options'),
      on: (value, values) =>
        values.choice === 'transfer' ? null : irishDateRule({ required: true })(value),
      transferredOn: (value, values) =>
        values.choice === 'transfer' ? irishDateRule({ required: true })(value) : null,
      receivingArrangement: (value, values) =>
        values.choice === 'transfer'
          ? required('Name the scheme or arrangement receiving it')(value)
          : null,
      amountCents: (value, values) =>
        values.choice === 'transfer' && givesAmount ? euroFieldError(value) : null,
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (values.choice === 'transfer') {
      const amount = givesAmount ? readEuro(values.amountCents) : null;
      // The form's rule has shown why an amount is not read; nothing is sent.
      if (amount !== null && !amount.ok) return;
      const answer = await api(apiRoutes.lifecycle.transferOut, {
        params: { id: member.id },
        body: {
          transferredOn: values.transferredOn,
          receivingArrangement: values.receivingArrangement.trim(),
          ...(amount === null ? {} : { amountCents: amount.cents }),
        },
      });
      apply(answer, `The transfer out to ${values.receivingArrangement.trim()} is recorded.`);
    } else if (values.choice === 'preserved' || values.choice === 'refund') {
      const answer = await api(apiRoutes.lifecycle.leavingChoice, {
        params: { id: member.id },
        body: { choice: values.choice, on: values.on },
      });
      apply(
        answer,
        values.choice === 'refund'
          ? 'The refund is recorded.'
          : 'The preserved benefit is recorded.',
      );
    }
    onClose();
  });
  const { choice } = form.values;
  return (
    <FormShell
      label="The leaver’s choice"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record the choice"
      onCancel={onClose}
    >
      <Radio.Group label="The member chose" required {...form.getInputProps('choice')}>
        <Stack gap="xs" mt="xs">
          {choices.map((option) => (
            <Radio key={option} value={option} label={LEAVING_OPTION_NAMES[option]} />
          ))}
        </Stack>
      </Radio.Group>
      {(choice === 'preserved' || choice === 'refund') && (
        <IrishDateInput
          label={choice === 'refund' ? 'Refund from' : 'Chosen on'}
          description={
            choice === 'refund'
              ? 'Day first: DD/MM/YYYY. The member’s units are sold at their first prices on or after it'
              : 'Day first: DD/MM/YYYY'
          }
          required
          minDate={lifecycle.statusOn ?? undefined}
          maxDate={todayInIreland(new Date())}
          {...form.getInputProps('on')}
        />
      )}
      {choice === 'transfer' && (
        <>
          <IrishDateInput
            label="Transferred on"
            description={
              givesAmount
                ? 'Day first: DD/MM/YYYY'
                : 'Day first: DD/MM/YYYY. The member’s units are sold at their first prices on or after it'
            }
            required
            minDate={lifecycle.statusOn ?? undefined}
            maxDate={todayInIreland(new Date())}
            {...form.getInputProps('transferredOn')}
          />
          <TextInput
            label="Receiving scheme or arrangement"
            required
            maxLength={200}
            {...form.getInputProps('receivingArrangement')}
          />
          {givesAmount && (
            <TextInput
              label="Transfer value (€)"
              description="As the scheme’s actuary worked it out"
              inputMode="decimal"
              required
              placeholder="12,500.00"
              {...form.getInputProps('amountCents')}
            />
          )}
        </>
      )}
    </FormShell>
  );
}

/**
 * Leaving service as guided steps: the day, then what the leaver may do and why with their
 * statement, then their choice, for whoever may record it. Recording a choice later starts at the
 * options.
 */
function LeaveSteps({ start, ...props }: StepProps & { start: 'leave' | 'choose' }) {
  const { member, lifecycle, may, onClose } = props;
  const apply = useApplyAnswer(member);
  const choosing = choicesOffered(lifecycle, may).length > 0;
  const [active, setActive] = useState(start === 'leave' ? 0 : lifecycle.leaving ? 1 : 2);
  return (
    <Stepper active={active} size="sm" allowNextStepsSelect={false}>
      <Stepper.Step label="Day of leaving">
        <LeaveForm
          member={member}
          onCancel={onClose}
          onLeft={(answer) => {
            apply(answer, 'Leaving service is recorded.');
            setActive(1);
          }}
        />
      </Stepper.Step>
      <Stepper.Step label="Options">
        <Stack gap="sm">
          {lifecycle.leaving && (
            <LeavingOptions
              member={member}
              leaving={lifecycle.leaving}
              own={false}
              mayDownload={may('member.leaving_statement.read')}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {choosing ? 'Later' : 'Done'}
            </Button>
            {choosing && <Button onClick={() => setActive(2)}>Record the choice</Button>}
          </Group>
        </Stack>
      </Stepper.Step>
      {choosing && (
        <Stepper.Step label="Choice">
          <ChoiceForm {...props} />
        </Stepper.Step>
      )}
    </Stepper>
  );
}

/** Retiring: the day, then the value of the member's funds on it, from the answer's payout. */
function RetireSteps({ member, onClose }: StepProps) {
  const apply = useApplyAnswer(member);
  const [payout, setPayout] = useState<PayoutView | null | undefined>(undefined);
  const form = useForm<{ retiredOn: string }>({
    initialValues: { retiredOn: '' },
    validate: { retiredOn: irishDateRule({ required: true }) },
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ retiredOn }) => {
    const answer = await api(apiRoutes.lifecycle.retire, {
      params: { id: member.id },
      body: { retiredOn },
    });
    apply(answer, 'The retirement is recorded.');
    const benefits = answer.payouts.filter((one) => one.kind === 'benefit');
    setPayout(benefits.find((one) => one.fromOn === retiredOn) ?? benefits.at(-1) ?? null);
  });
  return (
    <Stepper active={payout === undefined ? 0 : 1} size="sm" allowNextStepsSelect={false}>
      <Stepper.Step label="Day of retirement">
        <FormShell
          label="Day of retirement"
          submit={submit}
          busy={busy}
          problem={problem}
          submitLabel="Record retirement"
          onCancel={onClose}
        >
          <Text size="sm">
            The member’s benefit is paid out from the value of their funds: their units are sold at
            the first prices on or after this day.
          </Text>
          <IrishDateInput
            label="Retired on"
            required
            minDate={member.statusOn ?? member.dateJoined}
            maxDate={todayInIreland(new Date())}
            data-autofocus
            {...form.getInputProps('retiredOn')}
          />
        </FormShell>
      </Stepper.Step>
      <Stepper.Step label="Value">
        <Stack gap="sm">
          {payout ? (
            <PayoutFigures payout={payout} />
          ) : (
            <Text role="status">The retirement is recorded; nothing is paid out of units.</Text>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      </Stepper.Step>
    </Stepper>
  );
}

interface DependantValues {
  key: string;
  name: string;
  relationship: string;
  phone: string;
  email: string;
  address: string;
}

const noDependant = (): DependantValues => ({
  key: randomId(),
  name: '',
  relationship: '',
  phone: '',
  email: '',
  address: '',
});

/** An optional field as the API takes it: null when left empty. */
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** A death: the day, and the people to contact about the death benefits, as many as there are. */
function DeathForm({ member, lifecycle, onClose }: StepProps) {
  const apply = useApplyAnswer(member);
  const today = todayInIreland(new Date());
  const form = useForm<{ diedOn: string; dependants: DependantValues[] }>({
    mode: 'controlled',
    initialValues: { diedOn: '', dependants: [] },
    validate: {
      diedOn: irishDateRule({ required: true }),
      dependants: {
        name: required('Give the dependant’s name'),
        relationship: required('Say how they were related to the member'),
      },
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ diedOn, dependants }) => {
    const answer = await api(apiRoutes.lifecycle.death, {
      params: { id: member.id },
      body: {
        diedOn,
        dependants: dependants.map((dependant) => ({
          name: dependant.name.trim(),
          relationship: dependant.relationship.trim(),
          phone: orNull(dependant.phone),
          email: orNull(dependant.email),
          address: orNull(dependant.address),
        })),
      },
    });
    apply(answer, 'The death is recorded.');
    onClose();
  });
  return (
    <FormShell
      label="Record a death"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record the death"
      onCancel={onClose}
    >
      <IrishDateInput
        label="Died on"
        required
        minDate={lifecycle.statusOn ?? member.dateJoined}
        maxDate={today}
        data-autofocus
        {...form.getInputProps('diedOn')}
      />
      {form.values.dependants.map((dependant, index) => (
        <Fieldset key={dependant.key} legend={`Dependant ${index + 1}`}>
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Name"
                required
                maxLength={200}
                {...form.getInputProps(`dependants.${index}.name`)}
              />
              <TextInput
                label="Relationship"
                description="Spouse, civil partner, child…"
                required
                maxLength={100}
                {...form.getInputProps(`dependants.${index}.relationship`)}
              />
              <TextInput
                label="Phone"
                type="tel"
                autoComplete="off"
                {...form.getInputProps(`dependants.${index}.phone`)}
              />
              <TextInput
                label="E-mail address"
                type="email"
                autoComplete="off"
                {...form.getInputProps(`dependants.${index}.email`)}
              />
            </SimpleGrid>
            <Textarea
              label="Postal address"
              autosize
              minRows={2}
              {...form.getInputProps(`dependants.${index}.address`)}
            />
            <Group justify="flex-end">
              <Button
                variant="subtle"
                color="red"
                onClick={() => form.removeListItem('dependants', index)}
              >
                Remove dependant {index + 1}
              </Button>
            </Group>
          </Stack>
        </Fieldset>
      ))}
      <div>
        <Button
          variant="default"
          onClick={() => form.insertListItem('dependants', noDependant())}
          disabled={form.values.dependants.length >= 10}
        >
          Add a dependant
        </Button>
      </div>
    </FormShell>
  );
}

/** A deferred member back in service. */
function RejoinForm({ member, lifecycle, onClose }: StepProps) {
  const apply = useApplyAnswer(member);
  const form = useForm<{ rejoinedOn: string }>({
    initialValues: { rejoinedOn: '' },
    validate: { rejoinedOn: irishDateRule({ required: true }) },
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ rejoinedOn }) => {
    const answer = await api(apiRoutes.lifecycle.rejoin, {
      params: { id: member.id },
      body: { rejoinedOn },
    });
    apply(answer, 'Rejoining is recorded.');
    onClose();
  });
  return (
    <FormShell
      label="Rejoin"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record rejoining"
      onCancel={onClose}
    >
      <Text size="sm">
        A new period of service starts on this day; it is added to the service before it, unless the
        member was paid out since.
      </Text>
      <IrishDateInput
        label="Rejoined on"
        required
        minDate={lifecycle.statusOn ?? member.dateJoined}
        maxDate={todayInIreland(new Date())}
        data-autofocus
        {...form.getInputProps('rejoinedOn')}
      />
    </FormShell>
  );
}

/** Undoing the latest change, with the reason; refused by the service once units were sold. */
function UndoForm({ member, lifecycle, onClose }: StepProps) {
  const apply = useApplyAnswer(member);
  const latest = latestUndoable(lifecycle.history);
  const form = useForm<{ reason: string }>({
    initialValues: { reason: '' },
    validate: { reason: required('Say why the change is being undone') },
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ reason }) => {
    const answer = await api(apiRoutes.lifecycle.correct, {
      params: { id: member.id },
      body: { reason: reason.trim() },
    });
    apply(answer, 'The change is undone.');
    onClose();
  });
  return (
    <FormShell
      label="Undo the latest change"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Undo the change"
      onCancel={onClose}
    >
      {latest && (
        <Text>
          This undoes “{STATUS_CHANGE_NAMES[latest.kind]}” of {formatDate(latest.on)}: the member
          goes back to where they stood before it. A change whose units were already sold cannot be
          undone.
        </Text>
      )}
      <Textarea
        label="Reason"
        required
        autosize
        minRows={2}
        maxLength={500}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormShell>
  );
}

/** The dialog of one step, mounted only while open so that each opening starts afresh. */
export function LifecycleDialog({ step, ...props }: StepProps & { step: LifecycleStep | null }) {
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
      opened={step !== null}
      onClose={props.onClose}
      title={step === null ? '' : STEP_TITLES[step]}
      size="lg"
      centered
    >
      {(step === 'leave' || step === 'choose') && <LeaveSteps start={step} {...props} />}
      {step === 'retire' && <RetireSteps {...props} />}
      {step === 'death' && <DeathForm {...props} />}
      {step === 'rejoin' && <RejoinForm {...props} />}
      {step === 'undo' && <UndoForm {...props} />}
    </Modal>
  );
}
