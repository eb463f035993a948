import {
  Alert,
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Progress,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { aiSettingsInput } from '../../../contracts/ai';
import { apiRoutes } from '../../../contracts/api-routes';
import { api, describeError } from '../../api/client';
import type { AiSettings } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Loading } from '../../components/Loading';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiAction, useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatPeriod } from '../../format';
import { fourEyesText, PROVIDER_NAMES, usageShare } from './ai-text';

const SETTINGS_KEY = ['tenant', 'ai-settings'] as const;
const count = new Intl.NumberFormat('en-IE');

/**
 * `/ai-settings`: a BrokerAdmin's view of the firm's AI provider: the firm's own API key,
 * which is only ever written here and never shown again, the monthly limits, this month's use,
 * and whether AI drafts need four eyes (docs/decisions/0083-ai-drafts-four-eyes.md).
 */
export function AiSettingsPage() {
  const session = useSignedIn();
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: () => api(apiRoutes.ai.settings),
  });
  if (settings.isPending) return <Loading label="Loading the AI settings" />;
  if (settings.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(settings.error)}
      </Alert>
    );
  }
  const mayUpdate = can(session, 'ai.settings.update');
  const saved = (next: AiSettings) => client.setQueryData(SETTINGS_KEY, next);
  return (
    <Stack gap="xl" maw={640}>
      <PageHeading title="AI settings" />
      <Usage settings={settings.data} />
      <KeySection settings={settings.data} mayUpdate={mayUpdate} onSaved={saved} />
      <FourEyesSection settings={settings.data} mayUpdate={mayUpdate} onSaved={saved} />
      {mayUpdate && <LimitsForm settings={settings.data} onSaved={saved} />}
    </Stack>
  );
}

function Usage({ settings }: { settings: AiSettings }) {
  const { usage } = settings;
  const tokens = usage.inputTokens + usage.outputTokens;
  const rows = [
    {
      label: 'Requests',
      used: usage.requests,
      limit: settings.monthlyRequestLimit,
      detail: null,
    },
    {
      label: 'Tokens',
      used: tokens,
      limit: settings.monthlyTokenLimit,
      detail: `${count.format(usage.inputTokens)} sent, ${count.format(usage.outputTokens)} received`,
    },
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby="ai-usage">
      <PageHeading title={`Usage in ${formatPeriod(usage.month)}`} order={3} id="ai-usage" />
      <Table withTableBorder aria-label="Usage this month">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th>Used</Table.Th>
            <Table.Th>Monthly limit</Table.Th>
            <Table.Th>Share of the limit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const share = usageShare(row.used, row.limit);
            return (
              <Table.Tr key={row.label}>
                <Table.Th scope="row">{row.label}</Table.Th>
                <Table.Td>
                  {count.format(row.used)}
                  {row.detail && (
                    <Text size="xs" c="dimmed">
                      {row.detail}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{count.format(row.limit)}</Table.Td>
                <Table.Td miw={140}>
                  <Text size="sm">{share}%</Text>
                  <Progress
                    value={share}
                    color={share >= 100 ? 'red' : share >= 80 ? 'yellow' : 'blue'}
                    aria-label={`${row.label}: ${share}% of the monthly limit used`}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Text size="sm">
        The counts start again on the first of each month. When a limit is reached, questions and AI
        drafts are refused until then; drafts from the template stay available.
      </Text>
    </Stack>
  );
}

/** What each section of the page is given: the settings, and what to do with the saved ones. */
interface SectionProps {
  settings: AiSettings;
  mayUpdate: boolean;
  onSaved: (next: AiSettings) => void;
}

interface KeyValues {
  apiKey: string;
}

/**
 * The key is write-only: the page only ever learns whether one is set. After saving, the field is
 * emptied, so the key is in the page no longer than it takes to send it.
 */
function KeySection({ settings, mayUpdate, onSaved }: SectionProps) {
  const [removing, setRemoving] = useState(false);
  const form = useForm<KeyValues>({
    initialValues: { apiKey: '' },
    validate: validateWith(aiSettingsInput, (values: KeyValues) => ({ apiKey: values.apiKey })),
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ apiKey }) => {
    const next = await api(apiRoutes.ai.updateSettings, { body: { apiKey } });
    form.reset();
    onSaved(next);
    notifySuccess('The key is saved. It will not be shown again.');
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="ai-key">
      <PageHeading title="Your firm’s API key" order={3} id="ai-key" />
      <Text size="sm">Provider: {PROVIDER_NAMES[settings.provider]}</Text>
      <Text fw={600} role="status" aria-label="Your firm’s key">
        {settings.apiKeySet ? 'A key is set' : 'No key is set'}
      </Text>
      <Text size="sm">
        {settings.provider === 'none'
          ? 'No AI provider is configured on this service, so no key is used: answers are extracts and drafts come from the template.'
          : settings.apiKeySet
            ? 'Requests from your firm use your own key with the provider. It is stored encrypted and is never shown again.'
            : 'Requests from your firm use the platform’s own provider account.'}
      </Text>
      {mayUpdate && (
        <form onSubmit={submit} noValidate aria-label="Set the API key">
          <Stack gap="sm">
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <PasswordInput
              label={settings.apiKeySet ? 'Replacement key' : 'API key'}
              description="Paste the key from your provider’s console."
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('apiKey')}
            />
            <Group>
              <Button type="submit" loading={busy}>
                {settings.apiKeySet ? 'Replace the key' : 'Save the key'}
              </Button>
              {settings.apiKeySet && (
                <Button variant="default" color="red" onClick={() => setRemoving(true)}>
                  Remove the key
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
      <ConfirmModal
        opened={removing}
        onClose={() => setRemoving(false)}
        title="Remove the key"
        confirmLabel="Remove"
        onConfirm={async () => {
          onSaved(await api(apiRoutes.ai.updateSettings, { body: { apiKey: null } }));
          notifySuccess('The key is removed.');
        }}
      >
        <Text>Remove your firm’s key? Requests will use the platform’s own provider account.</Text>
      </ConfirmModal>
    </Stack>
  );
}

/**
 * Whether each AI draft needs a reviewer and an approver besides the people who wrote it.
 * Turning it off lets one person approve their own draft, so it is asked for first; turning it
 * on is done at once.
 */
function FourEyesSection({ settings, mayUpdate, onSaved }: SectionProps) {
  const [turningOff, setTurningOff] = useState(false);
  const save = async (fourEyes: boolean) => {
    onSaved(await api(apiRoutes.ai.updateSettings, { body: { fourEyes } }));
    notifySuccess(fourEyes ? 'Four eyes is on for AI drafts.' : 'Four eyes is off for AI drafts.');
  };
  const turnOn = useApiAction(() => save(true));
  const { state, about } = fourEyesText(settings.fourEyes);
  return (
    <Stack gap="sm" component="section" aria-labelledby="ai-four-eyes">
      <PageHeading title="Four eyes on AI drafts" order={3} id="ai-four-eyes" />
      <Text fw={600} role="status" aria-label="Four eyes on AI drafts">
        {state}
      </Text>
      <Text size="sm">{about}</Text>
      {mayUpdate && (
        <Group>
          {settings.fourEyes ? (
            <Button variant="default" onClick={() => setTurningOff(true)}>
              Turn four eyes off
            </Button>
          ) : (
            <Button onClick={turnOn.run} loading={turnOn.busy}>
              Turn four eyes on
            </Button>
          )}
        </Group>
      )}
      <ConfirmModal
        opened={turningOff}
        onClose={() => setTurningOff(false)}
        title="Turn four eyes off"
        confirmLabel="Turn off"
        onConfirm={() => save(false)}
      >
        <Text>
          Turn four eyes off? One person could then generate, review and approve a draft on their
          own. The change is recorded in the audit log.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

interface LimitValues {
  monthlyRequestLimit: number | string;
  monthlyTokenLimit: number | string;
}

/** An emptied field goes back to the platform's default (null); Mantine gives '' for empty. */
const limitOf = (value: number | string) => (value === '' ? null : Number(value));
const limitsBody = (values: LimitValues) => ({
  monthlyRequestLimit: limitOf(values.monthlyRequestLimit),
  monthlyTokenLimit: limitOf(values.monthlyTokenLimit),
});

function LimitsForm({ settings, onSaved }: Omit<SectionProps, 'mayUpdate'>) {
  const form = useForm<LimitValues>({
    initialValues: {
      monthlyRequestLimit: settings.monthlyRequestLimit,
      monthlyTokenLimit: settings.monthlyTokenLimit,
    },
    validate: validateWith(aiSettingsInput, limitsBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const next = await api(apiRoutes.ai.updateSettings, { body: limitsBody(values) });
    onSaved(next);
    form.setValues({
      monthlyRequestLimit: next.monthlyRequestLimit,
      monthlyTokenLimit: next.monthlyTokenLimit,
    });
    form.resetDirty();
    notifySuccess('The monthly limits are saved.');
  });
  return (
    <form onSubmit={submit} noValidate aria-labelledby="ai-limits">
      <Stack gap="sm">
        <PageHeading title="Monthly limits" order={3} id="ai-limits" />
        <Text size="sm">Leave a field empty to use the platform’s default limit.</Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <NumberInput
          label="Requests per month"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          {...form.getInputProps('monthlyRequestLimit')}
        />
        <NumberInput
          label="Tokens per month"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          {...form.getInputProps('monthlyTokenLimit')}
        />
        <Group>
          <Button type="submit" loading={busy}>
            Save the limits
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
