import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  annualChargeWords,
  holdsUnits,
  MAX_ANNUAL_CHARGE_BASIS_POINTS,
} from '../../../contracts/dc-money-rules';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import { api, describeError } from '../../api/client';
import type { Fund, Scheme } from '../../api/types';
import { can, canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { fetchAllPages } from '../../components/allPages';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, CursorTable } from '../../components/CursorTable';
import { showApiErrors } from '../../components/forms';
import { FundAssetsPanel } from './FundAssetsPanel';
import { FundPricesView, PriceImport } from './FundPrices';
import { schemeKey } from './SchemeQueries';

/** Every list of a scheme's funds sits under this key, so one change refreshes them all. */
export const schemeFundsKey = (schemeId: string) => ['schemes', schemeId, 'funds'] as const;

interface FundFormValues {
  name: string;
  isin: string;
  /** Whole basis points a year; empty for none. */
  charge: number | string;
}

const bodyOf = (values: FundFormValues) => ({
  name: values.name,
  isin: values.isin.trim() === '' ? null : values.isin,
  annualChargeBasisPoints: typeof values.charge === 'number' ? values.charge : 0,
});

/**
 * The funds a scheme offers, closed ones included: adding, renaming, closing (a closed fund takes
 * no new choices; choices already made stay) and reopening. Members choose among the open ones.
 * Of a scheme whose members hold units: each fund's annual charge and unit prices, the default
 * fund, a prices file, and what all members hold (docs/decisions/0127-dc-money.md).
 */
export function FundsPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const manage = canChange(session, 'fund.update', scheme);
  const [renaming, setRenaming] = useState<Fund | null>(null);
  const [closing, setClosing] = useState<Fund | null>(null);
  const [pricing, setPricing] = useState<Fund | null>(null);
  const [importing, setImporting] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: schemeFundsKey(scheme.id) });
  const units = holdsUnits(scheme.type);
  const mayImport = units && can(session, 'fund_price.import', scheme);
  const allFunds = useQuery({
    queryKey: [...schemeFundsKey(scheme.id), 'every'],
    // Every fund, closed ones included: a closed fund's holders are still valued, so it takes prices.
    queryFn: async () =>
      (
        await fetchAllPages(apiRoutes.funds.listOfScheme, {
          params: { id: scheme.id },
          query: { includeClosed: 'true' },
        })
      ).items,
    enabled: importing,
  });
  const setDefault = async (fund: Fund) => {
    try {
      await api(apiRoutes.schemes.update, {
        params: { id: scheme.id },
        body: { defaultFundId: fund.id },
      });
      notifications.show({ color: 'green', message: `“${fund.name}” is now the default fund` });
      await client.invalidateQueries({ queryKey: schemeKey(scheme.id) });
    } catch (error) {
      notifications.show({ color: 'red', message: describeError(error) });
    }
  };

  const setClosed = async (fund: Fund, closed: boolean) => {
    await api(apiRoutes.funds.update, { params: { id: fund.id }, body: { closed } });
    notifications.show({
      color: 'green',
      message: closed ? `“${fund.name}” closed to new choices` : `“${fund.name}” reopened`,
    });
    await refresh();
  };
  const reopen = (fund: Fund) =>
    setClosed(fund, false).catch((error: unknown) =>
      notifications.show({ color: 'red', message: describeError(error) }),
    );

  const columns: Column<Fund>[] = [
    {
      key: 'name',
      header: 'Fund',
      render: (fund) => fund.name,
      sortValue: (fund) => fund.name.toLocaleLowerCase('en-IE'),
    },
    { key: 'isin', header: 'ISIN', render: (fund) => fund.isin ?? '—' },
    {
      key: 'status',
      header: 'Status',
      render: (fund) =>
        fund.closed ? (
          <Badge color="gray" variant="dot">
            Closed
          </Badge>
        ) : (
          <Badge color="green" variant="dot">
            Open
          </Badge>
        ),
      sortValue: (fund) => (fund.closed ? 1 : 0),
    },
  ];
  if (units) {
    columns.push(
      {
        key: 'charge',
        header: 'Annual charge',
        render: (fund) => annualChargeWords(fund.annualChargeBasisPoints),
        sortValue: (fund) => fund.annualChargeBasisPoints,
      },
      {
        key: 'default',
        header: 'Default fund',
        render: (fund) =>
          fund.id === scheme.defaultFundId ? (
            <Badge color="blue" variant="light">
              Default
            </Badge>
          ) : canChange(session, 'scheme.default_fund.set', scheme) && !fund.closed ? (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => setDefault(fund)}
              aria-label={`Make ${fund.name} the default fund`}
            >
              Make default
            </Button>
          ) : (
            ''
          ),
      },
      {
        key: 'prices',
        header: 'Prices',
        render: (fund) => (
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => setPricing(fund)}
            aria-label={`Prices of ${fund.name}`}
          >
            Prices
          </Button>
        ),
      },
    );
  }
  if (manage) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (fund) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => setRenaming(fund)}
            aria-label={`Rename ${fund.name}`}
          >
            Rename
          </Button>
          {fund.closed ? (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => reopen(fund)}
              aria-label={`Reopen ${fund.name}`}
            >
              Reopen
            </Button>
          ) : (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={() => setClosing(fund)}
              aria-label={`Close ${fund.name}`}
            >
              Close
            </Button>
          )}
        </Group>
      ),
    });
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>Funds</Title>
        {mayImport && (
          <Button variant="default" onClick={() => setImporting(true)}>
            Import prices
          </Button>
        )}
      </Group>
      {canChange(session, 'fund.create', scheme) && (
        <AddFundForm scheme={scheme} units={units} onAdded={refresh} />
      )}
      <CursorTable
        queryKey={[...schemeFundsKey(scheme.id), 'all']}
        route={apiRoutes.funds.listOfScheme}
        params={{ id: scheme.id }}
        query={{ includeClosed: 'true', limit: 100 }}
        columns={columns}
        caption={`Funds of ${scheme.name}, closed ones included`}
        empty="This scheme offers no funds yet."
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title="Rename fund"
      >
        {renaming && (
          <RenameFundForm
            fund={renaming}
            onDone={async () => {
              setRenaming(null);
              await refresh();
            }}
            onCancel={() => setRenaming(null)}
          />
        )}
      </Modal>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={pricing !== null}
        onClose={() => setPricing(null)}
        title={pricing ? `Prices of ${pricing.name}` : 'Prices'}
        size="lg"
      >
        {pricing && (
          <FundPricesView fund={pricing} mayRecord={can(session, 'fund_price.record', scheme)} />
        )}
      </Modal>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={importing}
        onClose={() => setImporting(false)}
        title="Import prices"
        size="lg"
      >
        {allFunds.isError && <Alert color="red">{describeError(allFunds.error)}</Alert>}
        {allFunds.data && (
          <PriceImport scheme={scheme} funds={allFunds.data} onDone={() => setImporting(false)} />
        )}
      </Modal>
      <ConfirmModal
        opened={closing !== null}
        onClose={() => setClosing(null)}
        title="Close fund"
        confirmLabel="Close fund"
        onConfirm={() => (closing ? setClosed(closing, true) : Promise.resolve())}
      >
        <Text>
          Close “{closing?.name}” to new choices? Members who already chose it keep their choice
          until they change it. You can reopen the fund later.
        </Text>
      </ConfirmModal>
      {units && can(session, 'fund_assets.read', scheme) && <FundAssetsPanel scheme={scheme} />}
    </Stack>
  );
}

function AddFundForm({
  scheme,
  units,
  onAdded,
}: {
  scheme: Scheme;
  /** The scheme's members hold units, so a fund has an annual charge. */
  units: boolean;
  onAdded: () => Promise<unknown>;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<FundFormValues>({
    mode: 'controlled',
    initialValues: { name: '', isin: '', charge: '' },
    validate: { name: (value) => (value.trim() === '' ? FIELD_MESSAGES.fundName : null) },
  });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const fund = await api(apiRoutes.funds.create, {
        params: { id: scheme.id },
        body: bodyOf(values),
      });
      notifications.show({ color: 'green', message: `“${fund.name}” added` });
      form.reset();
      await onAdded();
    } catch (error) {
      setProblem(showApiErrors(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Add a fund">
      <Stack gap="xs">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group align="flex-start">
          <TextInput
            label="New fund name"
            required
            w={{ base: '100%', sm: 280 }}
            {...form.getInputProps('name')}
          />
          <TextInput
            label="ISIN (optional)"
            placeholder="IE00B4L5Y983"
            w={{ base: '100%', sm: 200 }}
            {...form.getInputProps('isin')}
          />
          {units && (
            <NumberInput
              label="Annual charge (basis points)"
              description="100 is 1% a year"
              min={0}
              max={MAX_ANNUAL_CHARGE_BASIS_POINTS}
              allowDecimal={false}
              allowNegative={false}
              w={{ base: '100%', sm: 200 }}
              {...form.getInputProps('charge')}
            />
          )}
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={form.submitting}>
            Add fund
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RenameFundForm({
  fund,
  onDone,
  onCancel,
}: {
  fund: Fund;
  onDone: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<FundFormValues>({
    mode: 'controlled',
    initialValues: { name: fund.name, isin: fund.isin ?? '', charge: fund.annualChargeBasisPoints },
    validate: { name: (value) => (value.trim() === '' ? FIELD_MESSAGES.fundName : null) },
  });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      await api(apiRoutes.funds.update, { params: { id: fund.id }, body: bodyOf(values) });
      notifications.show({ color: 'green', message: 'Fund saved' });
      await onDone();
    } catch (error) {
      setProblem(showApiErrors(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label="Fund name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput label="ISIN (optional)" {...form.getInputProps('isin')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
