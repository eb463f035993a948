import {
  Alert,
  Anchor,
  Button,
  DataList,
  Group,
  Modal,
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
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates';
import { RAC_KIND_NAMES, schemeTypeFixedBecause } from '../../../contracts/organisation';
import { percentInWords } from '../../../contracts/percent';
import {
  acceptsChanges,
  type SchemeWindUpInput,
  schemeDeleteRefusal,
  schemeWindUpInput,
  WIND_UP_REASON_WORDS,
  WIND_UP_REASONS,
  type WindUpReason,
} from '../../../contracts/scheme-wind-up';
import { api } from '../../api/client';
import type { SchemeDetail, SchemeType } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { IrishDateInput } from '../../components/IrishDateInput';
import { SchemeYearFields } from '../../components/SchemeYearFields';
import {
  ACCRUAL_RATE_HINT,
  FUNDING_LEVEL_HINT,
  RETIREMENT_AGE_HINT,
  type SchemeEditValues,
  schemeChangeBody,
  schemeEditValues,
  validateSchemeEdit,
  yearEndInWords,
} from '../../components/scheme-fields';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatDate } from '../../format';
import { GOVERNANCE_KEY } from '../governance/governanceQueries';
import { schemeKey } from './SchemeQueries';

export const SCHEME_TYPE_OPTIONS: { value: SchemeType; label: string }[] = [
  { value: 'DC', label: 'DC: defined contribution' },
  { value: 'DB', label: 'DB: defined benefit' },
  { value: 'PRSA', label: 'PRSA: personal retirement savings account' },
  { value: 'RAC', label: 'RAC: retirement annuity contract' },
];

/** A scheme type in words: "DC: defined contribution". */
const typeInWords = (type: SchemeType) =>
  SCHEME_TYPE_OPTIONS.find((option) => option.value === type)?.label ?? type;

/** Shown where a detail has not been given. */
const notRecorded = (
  <Text c="dimmed" span>
    Not recorded
  </Text>
);

/** A contribution rate in words: "5% of salary". */
const rateInWords = (basisPoints: number | null) =>
  basisPoints === null ? notRecorded : `${percentInWords(basisPoints)} of salary`;

/** The scheme's name as the page's heading, its facts, and renaming and deleting it. */
export function SchemeDetails({ scheme }: { scheme: SchemeDetail }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [editing, edit] = useDisclosure(false);
  const [deleting, askDelete] = useDisclosure(false);
  const [windingUp, askWindUp] = useDisclosure(false);
  const woundUp = !acceptsChanges(scheme);
  // Only a scheme made by mistake, one that never had a member, is deleted; any other is wound up
  // (docs/decisions/0146-schemes-wound-up-not-deleted.md).
  const deletable = !woundUp && schemeDeleteRefusal(scheme) === null;
  const employer = useQuery({
    queryKey: ['employers', scheme.employerId],
    queryFn: () => api(apiRoutes.employers.get, { params: { id: scheme.employerId } }),
  });

  const remove = async () => {
    await api(apiRoutes.schemes.remove, { params: { id: scheme.id } });
    notifications.show({ color: 'green', message: `Scheme “${scheme.name}” deleted` });
    // Leave first: refreshing the deleted scheme while its page is shown would answer 404.
    await navigate({ to: '/schemes' });
    client.removeQueries({ queryKey: schemeKey(scheme.id) });
    void client.invalidateQueries({ queryKey: ['schemes'] });
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start">
        <Title order={2}>{scheme.name}</Title>
        <Group gap="xs">
          {!woundUp && can(session, 'scheme.update', scheme) && (
            <Button variant="default" onClick={edit.open}>
              Edit scheme
            </Button>
          )}
          {!woundUp && can(session, 'scheme.wind_up', scheme) && (
            <Button color="red" variant="light" onClick={askWindUp.open}>
              Wind up scheme
            </Button>
          )}
          {deletable && can(session, 'scheme.delete', scheme) && (
            <Button color="red" variant="light" onClick={askDelete.open}>
              Delete scheme
            </Button>
          )}
        </Group>
      </Group>
      {woundUp && (
        <Alert color="gray" title={`Wound up on ${dateInWords(scheme.woundUpOn ?? '')}`}>
          <Stack gap={4}>
            {scheme.windUpReason && <Text>{WIND_UP_REASON_WORDS[scheme.windUpReason]}.</Text>}
            {scheme.windUpNote && <Text>{scheme.windUpNote}</Text>}
            <Text size="sm">
              Its records are kept as they were and no longer change; its governance duties ended
              with it.
            </Text>
          </Stack>
        </Alert>
      )}
      <DataList labelWidth="13rem">
        <DataList.Item>
          <DataList.ItemLabel>Type</DataList.ItemLabel>
          <DataList.ItemValue>{typeInWords(scheme.type)}</DataList.ItemValue>
        </DataList.Item>
        {scheme.racKind !== null && (
          <DataList.Item>
            <DataList.ItemLabel>Kind of RAC</DataList.ItemLabel>
            <DataList.ItemValue>{RAC_KIND_NAMES[scheme.racKind]}</DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Scheme year ends</DataList.ItemLabel>
          <DataList.ItemValue>{yearEndInWords(scheme.yearEnd)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Employer</DataList.ItemLabel>
          <DataList.ItemValue>
            {employer.data ? (
              <Anchor component={Link} to={`/employers/${scheme.employerId}`}>
                {employer.data.name}
              </Anchor>
            ) : (
              <Text c="dimmed" span>
                {employer.isPending ? 'Loading…' : 'Not available'}
              </Text>
            )}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>SR number</DataList.ItemLabel>
          <DataList.ItemValue>{scheme.srNumber ?? notRecorded}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>LEI</DataList.ItemLabel>
          <DataList.ItemValue>{scheme.lei ?? notRecorded}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Started</DataList.ItemLabel>
          <DataList.ItemValue>
            {scheme.startDate === null ? notRecorded : formatDate(scheme.startDate)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Employee contribution</DataList.ItemLabel>
          <DataList.ItemValue>
            {rateInWords(scheme.employeeContributionBasisPoints)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Employer contribution</DataList.ItemLabel>
          <DataList.ItemValue>
            {rateInWords(scheme.employerContributionBasisPoints)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Normal retirement age</DataList.ItemLabel>
          <DataList.ItemValue>
            {scheme.normalRetirementAge == null
              ? notRecorded
              : `${scheme.normalRetirementAge} years`}
          </DataList.ItemValue>
        </DataList.Item>
        {scheme.type === 'DB' && (
          <>
            <DataList.Item>
              <DataList.ItemLabel>Accrual rate</DataList.ItemLabel>
              <DataList.ItemValue>
                {scheme.accrualRate == null
                  ? notRecorded
                  : `${scheme.accrualRate} of salary for each year of service`}
              </DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Funding level</DataList.ItemLabel>
              <DataList.ItemValue>
                {scheme.fundingLevelPct == null ? notRecorded : `${scheme.fundingLevelPct}%`}
              </DataList.ItemValue>
            </DataList.Item>
          </>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Created</DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(scheme.createdAt)}</DataList.ItemValue>
        </DataList.Item>
      </DataList>

      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={editing}
        onClose={edit.close}
        title="Edit scheme"
        centered
      >
        <SchemeForm
          scheme={scheme}
          canSetType={can(session, 'scheme.type.set', scheme)}
          onDone={edit.close}
        />
      </Modal>
      <ConfirmModal
        opened={deleting}
        onClose={askDelete.close}
        title="Delete scheme"
        confirmLabel="Delete scheme"
        onConfirm={remove}
      >
        <Text>
          Delete “{scheme.name}”? It has never had a member, so nothing of it needs keeping: it
          disappears from every list and page, and the deletion is recorded in the audit log.
        </Text>
      </ConfirmModal>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={windingUp}
        onClose={askWindUp.close}
        title="Wind up scheme"
        centered
      >
        {windingUp && <WindUpForm scheme={scheme} onDone={askWindUp.close} />}
      </Modal>
    </Stack>
  );
}

function SchemeForm({
  scheme,
  canSetType,
  onDone,
}: {
  scheme: SchemeDetail;
  /** Employer roles rename a scheme; its type is the broker's (docs/decisions/0043-scheme-type-and-funds-are-the-brokers.md). */
  canSetType: boolean;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const typeFixed = schemeTypeFixedBecause(scheme);
  const form = useForm<SchemeEditValues>({
    mode: 'controlled',
    initialValues: schemeEditValues(scheme),
    validate: validateSchemeEdit,
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const change = schemeChangeBody(scheme, values);
    if (Object.keys(change).length === 0) {
      onDone();
      return;
    }
    const saved = await api(apiRoutes.schemes.update, {
      params: { id: scheme.id },
      body: change,
    });
    client.setQueryData(schemeKey(scheme.id), saved);
    // Its governance reads sit under its key too: the year end and an RAC's kind move its duties,
    // and whether it keeps registers at all, as the dashboard and calendar show them.
    await client.invalidateQueries({ queryKey: ['schemes'] });
    await client.invalidateQueries({ queryKey: GOVERNANCE_KEY });
    notifications.show({ color: 'green', message: 'Scheme saved' });
    onDone();
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label="Scheme name" required {...form.getInputProps('name')} />
        {canSetType && typeFixed === null && (
          <Select
            label="Scheme type"
            description="Cannot change once the scheme has members"
            data={SCHEME_TYPE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('type')}
          />
        )}
        {canSetType && typeFixed !== null && (
          // Members belong to it: its type is shown, not offered, with the rule the service
          // would refuse a change by (contracts/organisation.ts).
          <Stack gap={2} role="group" aria-labelledby="scheme-type-fixed">
            <Text size="sm" fw={500} id="scheme-type-fixed">
              Scheme type
            </Text>
            <Text>{typeInWords(scheme.type)}</Text>
            <Text size="sm" c="dimmed">
              {typeFixed}.
            </Text>
          </Stack>
        )}
        <SchemeYearFields form={form} canSetKind={canSetType} />
        <TextInput
          label="SR number"
          description="The Pensions Authority’s scheme registration number, like SR123456"
          {...form.getInputProps('srNumber')}
        />
        <TextInput
          label="LEI"
          description="The scheme’s Legal Entity Identifier, 20 letters and digits, written in the DORA register of information"
          {...form.getInputProps('lei')}
        />
        <IrishDateInput label="Start date" {...form.getInputProps('startDate')} />
        <Group grow align="flex-start">
          <TextInput
            label="Employee contribution"
            description="% of salary"
            rightSection="%"
            {...form.getInputProps('employeeRate')}
          />
          <TextInput
            label="Employer contribution"
            description="% of salary"
            rightSection="%"
            {...form.getInputProps('employerRate')}
          />
        </Group>
        <TextInput
          label="Normal retirement age (years)"
          description={RETIREMENT_AGE_HINT}
          inputMode="numeric"
          {...form.getInputProps('retirementAge')}
        />
        {form.values.type === 'DB' && (
          // What a DB scheme's benefit statements are made from and show
          // (docs/decisions/0141-pension-benefit-statements.md).
          <Group grow align="flex-start">
            <TextInput
              label="Accrual rate"
              description={ACCRUAL_RATE_HINT}
              {...form.getInputProps('accrualRate')}
            />
            <TextInput
              label="Funding level"
              description={FUNDING_LEVEL_HINT}
              rightSection="%"
              {...form.getInputProps('fundingLevel')}
            />
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface WindUpValues {
  woundUpOn: string;
  reason: WindUpReason | null;
  note: string;
}

const windUpBody = ({ woundUpOn, reason, note }: WindUpValues) => ({
  woundUpOn,
  reason: reason ?? undefined,
  ...(note.trim() === '' ? {} : { note }),
});

/** The day, the reason and a note; the scheme is read only once it is done. */
function WindUpForm({ scheme, onDone }: { scheme: SchemeDetail; onDone: () => void }) {
  const client = useQueryClient();
  const form = useForm<WindUpValues>({
    initialValues: { woundUpOn: todayInIreland(new Date()), reason: null, note: '' },
    validate: validateWith(schemeWindUpInput, windUpBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const body: SchemeWindUpInput = schemeWindUpInput.parse(windUpBody(values));
    const wound = await api(apiRoutes.schemes.windUp, { params: { id: scheme.id }, body });
    client.setQueryData(schemeKey(scheme.id), wound);
    void client.invalidateQueries({ queryKey: ['schemes'] });
    void client.invalidateQueries({ queryKey: GOVERNANCE_KEY });
    notifications.show({ color: 'green', message: `Scheme “${scheme.name}” wound up` });
    onDone();
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Text>
          A wound-up scheme keeps its members, contributions and registers as they are, read only,
          and its governance duties end. It cannot be undone.
        </Text>
        <IrishDateInput label="Wound up on" required {...form.getInputProps('woundUpOn')} />
        {/* The day is today unless changed; the reason is what the person must choose. */}
        <Select
          label="Why"
          required
          data-autofocus
          data={WIND_UP_REASONS.map((value) => ({ value, label: WIND_UP_REASON_WORDS[value] }))}
          {...form.getInputProps('reason')}
        />
        <Textarea
          label="Note"
          description="Required for another reason. Kept with the scheme, not in the audit log."
          required={form.getValues().reason === 'other'}
          autosize
          minRows={2}
          {...form.getInputProps('note')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={busy}>
            Wind up scheme
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
