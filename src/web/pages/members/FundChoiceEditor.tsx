import { Alert, Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { addDays, todayInIreland } from '../../../contracts/irish-dates';
import { api } from '../../api/client';
import type { Fund, FundChoice } from '../../api/types';
import { showApiErrors } from '../../components/forms';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { type FundPercents, FundPercentsTable, percentLinesOf, totalOf } from './FundPercentsTable';

interface EditorValues {
  effectiveFrom: string;
  percents: FundPercents;
}

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
  const total = totalOf(funds, form.values.percents);
  const allocationErrors = Object.entries(form.errors)
    .filter(([path]) => path.startsWith('allocations'))
    .map(([, message]) => message);

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    const allocations = percentLinesOf(funds, values.percents);
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
        <FundPercentsTable
          form={form}
          funds={funds}
          caption="Whole percentages of each contribution, adding up to 100. Leave a fund empty to choose none of it."
          testId="fund-choice-total"
        />
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
