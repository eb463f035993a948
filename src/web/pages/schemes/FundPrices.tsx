import { Alert, Button, FileInput, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatDecimal6, readUnitPrice } from '../../../contracts/dc-money-rules';
import type { SchemePriceFileReading } from '../../../contracts/fund-price-file';
import { todayInIreland } from '../../../contracts/irish-dates';
import { counted } from '../../../contracts/plain-english';
import { api, describeError, upload } from '../../api/client';
import type { Fund, FundPricesRecorded, Scheme } from '../../api/types';
import { showApiErrors } from '../../components/forms';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate } from '../../format';
import { readPriceFileToSend } from './priceFile';

/** Every price list of a scheme's funds sits under this key, so a new price refreshes them. */
export const fundPricesKey = (fundId: string) => ['funds', fundId, 'prices'] as const;

/** What a request of prices did, in a sentence. */
export function recordedSentence(done: FundPricesRecorded): string {
  const parts = [
    done.recorded > 0 ? `${counted(done.recorded, 'price')} recorded` : null,
    done.corrected > 0 ? `${counted(done.corrected, 'price')} corrected` : null,
    done.unchanged > 0 ? `${counted(done.unchanged, 'price')} already recorded` : null,
    done.replayed > 0
      ? `the transactions of ${counted(done.replayed, 'member')} worked out again at the corrected prices`
      : null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'Nothing to record' : `${parts.join('; ')}.`;
}

/**
 * One fund's unit prices over the last year, newest last as the service gives them, a corrected
 * one marked; and, for whoever keeps the prices (fund_price.record), a price to record for a day.
 * A different price for a day that has one is a correction: what used the old price is worked
 * out again (docs/decisions/0127-dc-money.md).
 */
export function FundPricesView({ fund, mayRecord }: { fund: Fund; mayRecord: boolean }) {
  const prices = useQuery({
    queryKey: fundPricesKey(fund.id),
    queryFn: () => api(apiRoutes.fundPrices.list, { params: { id: fund.id }, query: {} }),
  });
  return (
    <Stack gap="sm">
      {mayRecord && <RecordPriceForm fund={fund} />}
      {prices.isPending && <Loading label="Loading the prices" />}
      {prices.isError && (
        <Alert color="red" role="alert">
          {describeError(prices.error)}
        </Alert>
      )}
      {prices.isSuccess && prices.data.items.length === 0 && (
        <Text c="dimmed">No price in the last year.</Text>
      )}
      {prices.isSuccess && prices.data.items.length > 0 && (
        <ScrollTable minWidth={320} label={`Unit prices of ${fund.name}`}>
          <Table striped>
            <Table.Caption>
              Unit prices of {fund.name}, {formatDate(prices.data.from)} to{' '}
              {formatDate(prices.data.to)}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                <Table.Th ta="right">Unit price</Table.Th>
                <Table.Th>Note</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...prices.data.items].reverse().map((price) => (
                <Table.Tr key={price.on}>
                  <Table.Td>{formatDate(price.on)}</Table.Td>
                  <Table.Td ta="right">€{price.price}</Table.Td>
                  <Table.Td>{price.corrected ? 'Corrected' : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}

function RecordPriceForm({ fund }: { fund: Fund }) {
  const client = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const today = todayInIreland(new Date());
  const form = useForm({
    mode: 'controlled',
    initialValues: { on: today, price: '' },
    validate: {
      on: irishDateRule({ required: true }),
      // The service's own reading of a price: a full stop, at most 6 places, never a comma.
      price: (value: string) => {
        const reading = readUnitPrice(value);
        return reading.ok ? null : reading.message;
      },
    },
  });
  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const done = await api(apiRoutes.fundPrices.record, {
        params: { id: fund.id },
        body: { prices: [{ on: values.on, price: values.price.trim() }] },
      });
      notifications.show({ color: 'green', message: recordedSentence(done) });
      form.setFieldValue('price', '');
      await client.invalidateQueries({ queryKey: fundPricesKey(fund.id) });
    } catch (error) {
      setProblem(showApiErrors(form, error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={`Record a price of ${fund.name}`}>
      <Stack gap="xs">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group align="flex-start">
          <IrishDateInput
            label="Day"
            description="DD/MM/YYYY, up to today"
            maxDate={today}
            required
            w={{ base: '100%', sm: 180 }}
            {...form.getInputProps('on')}
          />
          <TextInput
            label="Unit price (€)"
            description="Up to 6 decimal places, e.g. 1.234567"
            required
            w={{ base: '100%', sm: 200 }}
            {...form.getInputProps('price')}
          />
          <Button type="submit" mt={{ base: 0, sm: 48 }} loading={form.submitting}>
            Record price
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A CSV of the scheme's funds' prices (`Fund`, `Date`, `Price`), read in the browser by the
 * service's own reader and shown before it is sent: the prices it holds, or every problem by line.
 * Sent only when it has none; the service records all rows or none.
 */
export function PriceImport({
  scheme,
  funds,
  onDone,
}: {
  scheme: Scheme;
  funds: Fund[];
  onDone: () => void;
}) {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [reading, setReading] = useState<SchemePriceFileReading | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const names = new Map(funds.map((fund) => [fund.id, fund.name]));

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setReading(null);
    setProblem(null);
    if (chosen) setReading(await readPriceFileToSend(chosen, funds, todayInIreland(new Date())));
  };
  const send = async () => {
    if (!file) return;
    setSending(true);
    setProblem(null);
    try {
      const done = await upload(
        apiRoutes.fundPrices.import,
        { params: { id: scheme.id } },
        file,
        'text/csv',
      );
      notifications.show({ color: 'green', message: recordedSentence(done) });
      await client.invalidateQueries({ queryKey: ['funds'] });
      onDone();
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm">
        A CSV file with the headings Fund, Date and Price: the fund by its name or ISIN, the day as
        DD/MM/YYYY, the price with a full stop and up to 6 decimal places. Every row is recorded, or
        none.
      </Text>
      <FileInput
        label="Prices file"
        accept=".csv,text/csv"
        value={file}
        onChange={choose}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
      />
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {reading && !reading.ok && (
        <Alert color="red" role="alert" title="This file cannot be imported">
          <Table>
            <Table.Caption>Problems, by line of the file</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Line</Table.Th>
                <Table.Th>Problem</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reading.problems.map((issue) => (
                <Table.Tr key={`${issue.line} ${issue.message}`}>
                  <Table.Td>{issue.line}</Table.Td>
                  <Table.Td>{issue.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Alert>
      )}
      {reading?.ok && (
        <ScrollTable minWidth={360} label="Prices in the file">
          <Table striped>
            <Table.Caption>{counted(reading.prices.length, 'price')} in the file</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Fund</Table.Th>
                <Table.Th>Day</Table.Th>
                <Table.Th ta="right">Unit price</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reading.prices.map((price) => (
                <Table.Tr key={`${price.fundId} ${price.on}`}>
                  <Table.Td>{names.get(price.fundId)}</Table.Td>
                  <Table.Td>{formatDate(price.on)}</Table.Td>
                  <Table.Td ta="right">€{formatDecimal6(price.micro)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <Group justify="flex-end">
        <Button
          onClick={send}
          disabled={!reading?.ok || reading.prices.length === 0}
          loading={sending}
        >
          {reading?.ok ? `Import ${counted(reading.prices.length, 'price')}` : 'Import prices'}
        </Button>
      </Group>
    </Stack>
  );
}
