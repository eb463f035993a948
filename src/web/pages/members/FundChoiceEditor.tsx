import { Alert, Button, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { addDays, todayInIreland } from '../../../contracts/irish-dates';
import { api } from '../../api/client';
import type { Fund, FundChoice } from '../../api/types';
import { showApiErrors } from '../../components/forms';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';

interface EditorValues {
  effectiveFrom: string;
  /** Whole percent per fund id; empty or 0 leaves the fund out. */
  percents: Record<string, number | string>;
}

const percentOf = (value: number | string | undefined): number =>
  typeof value === 'number' && Number.isInteger(value) ? value : 0;

/**
 * A new fund choice: a whole percentage per open fund of the scheme, whose total must reach
 * exactly 100 before it can be saved, from today or a date up to a year ahead (days in Ireland,
 * as the API counts them).
 */
export function FundChoiceEditor({
  memberId,
  funds,
  current,
  onSaved,
  onCancel,
}: {
  memberId: string;
  funds: Fund[];
  current: FundChoice | null;
  onSaved: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const today = todayInIreland(new Date());
  const latest = addDays(today, 365);
  const form = useForm<EditorValues>({
    mode: 'controlled',
    validate: { effectiveFrom: irishDateRule({ required: false }) },
    initialValues: {
      effectiveFrom: '',
      // Start from the choice in force, for the funds still open.
      percents: Object.fromEntries(
        funds.map((fund) => [
          fund.id,
          current?.allocations.find((line) => line.fundId === fund.id)?.percent ?? '',
        ]),
      ),
    },
  });
  const total = funds.reduce((sum, fund) => sum + percentOf(form.values.percents[fund.id]), 0);
  const allocationErrors = Object.entries(form.errors)
    .filter(([path]) => path.startsWith('allocations'))
    .map(([, message]) => message);

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    const allocations = funds
      .map((fund) => ({ fundId: fund.id, percent: percentOf(values.percents[fund.id]) }))
      .filter((line) => line.percent > 0);
    try {
      await api(apiRoutes.funds.setChoices, {
        params: { id: memberId },
        body: {
          allocations,
          ...(values.effectiveFrom === '' ? {} : { effectiveFrom: values.effectiveFrom }),
        },
      });
      notifications.show({ color: 'green', message: 'Fund choice saved' });
      await onSaved();
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
        <Table captionSide="top">
          <Table.Caption style={{ textAlign: 'left' }}>
            Whole percentages of each contribution, adding up to 100. Leave a fund empty to choose
            none of it.
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Fund</Table.Th>
              <Table.Th w={140}>Percent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {funds.map((fund) => (
              <Table.Tr key={fund.id}>
                <Table.Td>{fund.name}</Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Percent in ${fund.name}`}
                    min={0}
                    max={100}
                    step={5}
                    allowDecimal={false}
                    allowNegative={false}
                    clampBehavior="strict"
                    suffix="%"
                    {...form.getInputProps(`percents.${fund.id}`)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">Total</Table.Th>
              <Table.Td>
                <Text
                  fw={700}
                  c={total === 100 ? undefined : 'red.9'}
                  aria-live="polite"
                  data-testid="fund-choice-total"
                >
                  {total}%
                </Text>
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
        <Text size="sm" c={total === 100 ? 'dimmed' : 'red.9'}>
          {total === 100
            ? 'The total is 100%.'
            : total < 100
              ? `${100 - total}% still to choose: the total must be exactly 100%.`
              : `${total - 100}% too much: the total must be exactly 100%.`}
        </Text>
        {allocationErrors.length > 0 && (
          <Alert color="red" role="alert">
            {allocationErrors.join('; ')}
          </Alert>
        )}
        <IrishDateInput
          label="Effective from"
          description="DD/MM/YYYY. Leave empty for today; at most a year ahead, never in the past"
          minDate={today}
          maxDate={latest}
          {...form.getInputProps('effectiveFrom')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={total !== 100} loading={form.submitting}>
            Save fund choice
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
