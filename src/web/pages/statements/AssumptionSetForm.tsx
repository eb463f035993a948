import { NumberInput, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  type StatementAssumptionsView,
  statementAssumptionsInput,
} from '../../../contracts/statements';
import { api } from '../../api/client';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { FormShell } from '../governance/GovernanceForm';
import { validateWithDates } from '../governance/governance-helpers';
import { ASSUMPTION_SETS_KEY } from './statementQueries';

const PERCENT_FIELDS = [
  {
    field: 'bestEstimateReturnPct',
    label: 'Best-estimate return a year (%)',
    description: 'What the funds are expected to earn, before charges',
  },
  {
    field: 'unfavourableReturnPct',
    label: 'Unfavourable return a year (%)',
    description: 'The lower return the statement also projects',
  },
  {
    field: 'inflationPct',
    label: 'Inflation a year (%)',
    description: 'To show values in today’s money',
  },
  { field: 'salaryGrowthPct', label: 'Salary growth a year (%)', description: undefined },
] as const;

interface SetValues {
  name: string;
  effectiveFrom: string;
  source: string;
  bestEstimateReturnPct: number | string;
  unfavourableReturnPct: number | string;
  inflationPct: number | string;
  salaryGrowthPct: number | string;
  annuityFactor: number | string;
}

/** A number field's entry for the API: nothing typed is no number, which the schema names. */
const numberOf = (value: number | string) => (typeof value === 'number' ? value : undefined);

const setBody = (values: SetValues) => ({
  name: values.name,
  effectiveFrom: values.effectiveFrom,
  source: values.source,
  bestEstimateReturnPct: numberOf(values.bestEstimateReturnPct),
  unfavourableReturnPct: numberOf(values.unfavourableReturnPct),
  inflationPct: numberOf(values.inflationPct),
  salaryGrowthPct: numberOf(values.salaryGrowthPct),
  annuityFactor: numberOf(values.annuityFactor),
});

/**
 * Adds the firm's own projection assumption set, from the guidance the trustees follow
 * (docs/decisions/0141-pension-benefit-statements.md, "Assumption sets"); checked by the API's own
 * schema. Once a run has used a set it is never edited: a new version of the name is added instead.
 */
export function AssumptionSetForm({
  onAdded,
  onCancel,
}: {
  onAdded: (set: StatementAssumptionsView) => void;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const form = useForm<SetValues>({
    initialValues: {
      name: '',
      effectiveFrom: '',
      source: '',
      bestEstimateReturnPct: '',
      unfavourableReturnPct: '',
      inflationPct: '',
      salaryGrowthPct: '',
      annuityFactor: '',
    },
    validate: validateWithDates(statementAssumptionsInput, setBody, {
      effectiveFrom: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const set = await api(apiRoutes.statementAssumptions.create, {
      body: statementAssumptionsInput.parse(setBody(values)),
    });
    await client.invalidateQueries({ queryKey: ASSUMPTION_SETS_KEY });
    notifySuccess(`The assumption set ${set.name} is added.`);
    onAdded(set);
  });
  return (
    <FormShell
      label="Add a projection assumption set"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Add the set"
      onCancel={onCancel}
    >
      <Text size="sm">
        The figures each statement projects with, from the guidance the trustees follow. Once a run
        has used a set it is kept as it was; later figures are added as a new set.
      </Text>
      <TextInput
        label="Name"
        required
        data-autofocus
        {...form.getInputProps('name')}
        description="Adding a name again makes its next version"
      />
      <IrishDateInput
        label="For information dates from"
        description="Day first: DD/MM/YYYY"
        required
        {...form.getInputProps('effectiveFrom')}
      />
      <Textarea
        label="Source"
        description="Where the figures come from: the guidance, and its date"
        required
        autosize
        minRows={2}
        {...form.getInputProps('source')}
      />
      {PERCENT_FIELDS.map(({ field, label, description }) => (
        <NumberInput
          key={field}
          label={label}
          description={description}
          required
          decimalScale={2}
          decimalSeparator="."
          allowedDecimalSeparators={['.']}
          {...form.getInputProps(field)}
        />
      ))}
      <NumberInput
        label="Annuity factor"
        description="What €1 a year of pension costs at retirement"
        required
        decimalScale={2}
        decimalSeparator="."
        allowedDecimalSeparators={['.']}
        {...form.getInputProps('annuityFactor')}
      />
    </FormShell>
  );
}
