import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { type IctProviderView, ictProviderInput, ictProviderUpdate } from '../../../contracts/dora';
import type { RegisterEntitiesView } from '../../../contracts/dora-register';
import { todayInIreland } from '../../../contracts/irish-dates';
import { brokerLeiInput } from '../../../contracts/organisation';
import { nounFor } from '../../../contracts/plain-english';
import { ROLE_NAMES } from '../../../contracts/roles';
import { api, describeError } from '../../api/client';
import { downloadAttachment } from '../../api/download';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifyProblem, notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatDate } from '../../format';
import { FormModal, FormShell } from '../governance/GovernanceForm';
import { validateWithDates } from '../governance/governance-helpers';
import {
  arrangementInWords,
  createBody,
  IDENTIFIER_TYPE_CHOICES,
  identifierError,
  type ProviderValues,
  SERVICE_TYPE_CHOICES,
  serviceTypeInWords,
  updateBody,
  valuesOf,
} from './provider-helpers';

/** Every read of the register sits under this key: a change refreshes it. */
const PROVIDERS_KEY = ['ict-providers'] as const;

const today = () => todayInIreland(new Date());

type Provider = IctProviderView;
type Dialog = { kind: 'add' } | { kind: 'change' | 'end'; provider: Provider };

/**
 * The firm's register of information (DORA Art. 28(3); ITS (EU) 2024/2956): one CSV file a
 * template in a ZIP, the platform as the direct ICT provider, its vendors as subcontractors and
 * the providers listed on this page.
 */
function RegisterOfInformationButton() {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAttachment(
        apiRoutes.registerOfInformation.export,
        {},
        {
          accept: 'application/zip',
          fallbackName: 'register-of-information.zip',
          failure: 'The register of information could not be made',
        },
      );
    } catch (error) {
      notifyProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <MissingLeis />
      <Group>
        <Button variant="light" loading={busy} onClick={() => void download()}>
          Download the register of information
        </Button>
        <Text size="sm" c="dimmed">
          A ZIP of one CSV file for each template of ITS (EU) 2024/2956: this platform, its own
          providers and the providers below, for the firm to complete and file with the Pensions
          Authority.
        </Text>
      </Group>
    </Stack>
  );
}

const ENTITIES_KEY = ['register-of-information', 'entities'] as const;

/**
 * Before the download, which of the entities the register names lack an LEI: the firm (B_01.01)
 * and its schemes within DORA (B_01.02), whose cells the file leaves empty until they are given.
 * A BrokerAdmin sets the firm's here; a scheme's is set on the scheme's page.
 */
function MissingLeis() {
  const session = useSignedIn();
  const [setting, setSetting] = useState(false);
  const entities = useQuery({
    queryKey: ENTITIES_KEY,
    queryFn: () => api(apiRoutes.registerOfInformation.entities),
  });
  if (!entities.data) return null;
  const { firm, schemes } = entities.data;
  const without = schemes.filter((scheme) => scheme.lei === null);
  const maySetFirm = can(session, 'broker.lei.set', { brokerId: firm.id, employerId: null });
  return (
    <>
      {(firm.lei === null || without.length > 0) && (
        <Alert color="yellow" title="LEIs missing from the register">
          <Stack gap={4}>
            {firm.lei === null && (
              <Text size="sm">
                The firm, {firm.name}, has no LEI recorded: the register names it as the entity that
                keeps the register.{' '}
                {maySetFirm
                  ? 'Set it below.'
                  : `A ${ROLE_NAMES.BrokerAdmin.toLowerCase()} of the firm can set it on this page.`}
              </Text>
            )}
            {without.length > 0 && (
              <Text size="sm">
                No LEI is recorded for the register’s {nounFor(without.length, 'scheme')}{' '}
                {without.map((scheme, index) => (
                  <span key={scheme.id}>
                    {index > 0 && ', '}
                    <Anchor component={Link} to={`/schemes/${scheme.id}`} size="sm">
                      {scheme.name}
                    </Anchor>
                  </span>
                ))}
                . A scheme’s LEI is set with its details, on its page.
              </Text>
            )}
            <Text size="sm">
              The file can still be downloaded: each missing LEI is left empty in it, for the firm
              to fill before filing.
            </Text>
          </Stack>
        </Alert>
      )}
      <Group gap="xs">
        <Text size="sm">
          Firm’s LEI:{' '}
          {firm.lei ?? (
            <Text span c="dimmed" size="sm">
              not recorded
            </Text>
          )}
        </Text>
        {maySetFirm && (
          <Button size="compact-sm" variant="default" onClick={() => setSetting(true)}>
            {firm.lei === null ? 'Set the firm’s LEI' : 'Change the firm’s LEI'}
          </Button>
        )}
      </Group>
      <FormModal opened={setting} title="The firm’s LEI" onClose={() => setSetting(false)}>
        <FirmLeiForm firm={firm} onClose={() => setSetting(false)} />
      </FormModal>
    </>
  );
}

/** The firm's LEI set, changed or, left empty, cleared. */
function FirmLeiForm({
  firm,
  onClose,
}: {
  firm: RegisterEntitiesView['firm'];
  onClose: () => void;
}) {
  const client = useQueryClient();
  const bodyOf = (values: { lei: string }) => ({
    lei: values.lei.trim() === '' ? null : values.lei,
  });
  const form = useForm({
    initialValues: { lei: firm.lei ?? '' },
    validate: validateWith(brokerLeiInput, bodyOf),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const saved = await api(apiRoutes.brokers.setLei, {
      params: { brokerId: firm.id },
      body: bodyOf(values),
    });
    notifySuccess(saved.lei ? `The firm’s LEI is ${saved.lei}.` : 'The firm’s LEI is cleared.');
    await client.invalidateQueries({ queryKey: ENTITIES_KEY });
    onClose();
  });
  return (
    <FormShell
      label="The firm’s LEI"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save LEI"
      onCancel={onClose}
    >
      <TextInput
        label="LEI"
        description="The firm’s Legal Entity Identifier, 20 letters and digits: the register of information names the firm by it. Leave it empty to clear it."
        data-autofocus
        {...form.getInputProps('lei')}
      />
    </FormShell>
  );
}

/**
 * `/ict-providers`: the firm's register of its ICT providers other than this platform
 * (DORA Art. 28(3); docs/decisions/0139-dora-ict-incidents.md, "The firm's other ICT providers"),
 * the latest added first, each with its service type in the annex's words, its country, its
 * contract's dates and whether it supports a critical or important function; forms to add one,
 * change one and record the end of its arrangement, which is kept, never deleted. The register of
 * information, built from this register and the platform's own chain, is downloaded here.
 */
export function IctProvidersPage() {
  const session = useSignedIn();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const mayChange = (provider: Provider) =>
    can(session, 'ict_provider.update', { brokerId: provider.brokerId, employerId: null });
  const on = today();
  const columns: Column<Provider>[] = [
    {
      key: 'name',
      header: 'Provider',
      render: (provider) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {provider.name}
          </Text>
          <Text size="sm" c="dimmed">
            {provider.identifier === null
              ? 'No LEI or EUID recorded'
              : `${provider.identifierType}: ${provider.identifier}`}
          </Text>
        </Stack>
      ),
      sortValue: (provider) => provider.name,
    },
    {
      key: 'serviceType',
      header: 'ICT service',
      render: (provider) => serviceTypeInWords(provider.serviceType),
      sortValue: (provider) => provider.serviceType,
    },
    {
      key: 'country',
      header: 'Country',
      render: (provider) => provider.country,
      sortValue: (provider) => provider.country,
    },
    {
      key: 'contract',
      header: 'Contract',
      render: (provider) => (
        <Stack gap={0}>
          <Text size="sm">{provider.contractReference}</Text>
          <Text size="sm">
            From {formatDate(provider.startedOn)}
            {provider.endedOn !== null && ` to ${formatDate(provider.endedOn)}`}
          </Text>
        </Stack>
      ),
      sortValue: (provider) => provider.startedOn,
    },
    {
      key: 'critical',
      header: 'Critical or important function',
      render: (provider) => (provider.supportsCriticalFunction ? 'Yes' : 'No'),
    },
    {
      key: 'status',
      header: 'Arrangement',
      render: (provider) => {
        const { ended, words } = arrangementInWords(provider, on);
        return (
          <Badge variant="dot" color={ended ? 'gray' : 'green'} miw="max-content">
            {words}
          </Badge>
        );
      },
      sortValue: (provider) => (arrangementInWords(provider, on).ended ? 1 : 0),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (provider) =>
        mayChange(provider) && (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Change: ${provider.name}`}
              onClick={() => setDialog({ kind: 'change', provider })}
            >
              Change
            </Button>
            {provider.endedOn === null && (
              <Button
                size="compact-sm"
                variant="default"
                aria-label={`Record the end: ${provider.name}`}
                onClick={() => setDialog({ kind: 'end', provider })}
              >
                Record the end
              </Button>
            )}
          </Group>
        ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeading title="ICT providers">
        {can(session, 'ict_provider.create') && (
          <Button onClick={() => setDialog({ kind: 'add' })}>Add a provider</Button>
        )}
      </PageHeading>
      {can(session, 'ict_register.export') && <RegisterOfInformationButton />}
      <Text size="sm">
        The firm’s providers of ICT services other than this platform, each arrangement kept once it
        ends (DORA Art. 28(3)). The service types are those of ITS (EU) 2024/2956 Annex III.
      </Text>
      <CursorTable
        queryKey={PROVIDERS_KEY}
        route={apiRoutes.ictProviders.list}
        columns={columns}
        caption="ICT providers, the latest added first"
        empty="No ICT provider is recorded."
        rowNoun="provider"
      />
      <FormModal opened={dialog?.kind === 'add'} title="Add a provider" onClose={close}>
        <ProviderForm provider={null} onClose={close} />
      </FormModal>
      <FormModal opened={dialog?.kind === 'change'} title="Change a provider" onClose={close}>
        {dialog?.kind === 'change' && <ProviderForm provider={dialog.provider} onClose={close} />}
      </FormModal>
      <FormModal opened={dialog?.kind === 'end'} title="Record the end" onClose={close}>
        {dialog?.kind === 'end' && <EndForm provider={dialog.provider} onClose={close} />}
      </FormModal>
    </Stack>
  );
}

function useRefreshProviders() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: PROVIDERS_KEY });
}

const DATE_FIELDS = { startedOn: { required: true }, endedOn: { required: false } } as const;

/** A provider added (`provider` null) or changed: every field the register of information takes. */
function ProviderForm({ provider, onClose }: { provider: Provider | null; onClose: () => void }) {
  const refresh = useRefreshProviders();
  const adding = provider === null;
  const form = useForm<ProviderValues>({
    initialValues: valuesOf(provider),
    validate: (values) => {
      const errors = adding
        ? validateWithDates(ictProviderInput, createBody, DATE_FIELDS)(values)
        : validateWithDates(ictProviderUpdate, updateBody, DATE_FIELDS)(values);
      const identifier = identifierError(values);
      return identifier === null || errors.identifier ? errors : { ...errors, identifier };
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (provider === null) {
      const added = await api(apiRoutes.ictProviders.create, { body: createBody(values) });
      notifySuccess(`Added: ${added.name}.`);
    } else {
      const changed = await api(apiRoutes.ictProviders.update, {
        params: { id: provider.id },
        body: updateBody(values),
      });
      notifySuccess(`Changed: ${changed.name}.`);
    }
    await refresh();
    onClose();
  });
  const label = adding ? 'Add a provider' : 'Change a provider';
  return (
    <FormShell
      label={label}
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel={adding ? 'Add provider' : 'Save changes'}
      onCancel={onClose}
    >
      <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
      <NativeSelect
        label="Identifier type"
        description="The provider’s LEI, or its EUID where it has no LEI"
        data={IDENTIFIER_TYPE_CHOICES}
        {...form.getInputProps('identifierType')}
      />
      <TextInput label="LEI or EUID" {...form.getInputProps('identifier')} />
      <TextInput
        label="Country"
        description="Where the provider has its head office, as two letters: IE for Ireland"
        required
        maxLength={2}
        {...form.getInputProps('country')}
      />
      <NativeSelect
        label="ICT service"
        required
        data={[{ value: '', label: 'Choose the service type' }, ...SERVICE_TYPE_CHOICES]}
        {...form.getInputProps('serviceType')}
      />
      <TextInput label="Contract reference" required {...form.getInputProps('contractReference')} />
      <IrishDateInput label="Contract start" required {...form.getInputProps('startedOn')} />
      <IrishDateInput
        label="Contract end"
        description="Leave empty while the arrangement runs"
        {...form.getInputProps('endedOn')}
      />
      <Checkbox
        label="Supports a critical or important function"
        {...form.getInputProps('supportsCriticalFunction', { type: 'checkbox' })}
      />
    </FormShell>
  );
}

/** The end of an arrangement: its last day recorded, the provider kept in the register. */
function EndForm({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const refresh = useRefreshProviders();
  const form = useForm<{ endedOn: string }>({
    initialValues: { endedOn: today() },
    validate: validateWithDates(ictProviderUpdate, (values) => values, {
      endedOn: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const ended = await api(apiRoutes.ictProviders.update, {
      params: { id: provider.id },
      body: { endedOn: values.endedOn },
    });
    notifySuccess(
      `${ended.name}: the arrangement ends on ${formatDate(ended.endedOn ?? values.endedOn)}.`,
    );
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Record the end"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save end date"
      onCancel={onClose}
    >
      <Text size="sm">
        {provider.name}, under contract {provider.contractReference} since{' '}
        {formatDate(provider.startedOn)}. It stays in the register, as ended.
      </Text>
      <IrishDateInput
        label="Last day of the arrangement"
        required
        data-autofocus
        {...form.getInputProps('endedOn')}
      />
    </FormShell>
  );
}
