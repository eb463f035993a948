import { Fieldset, Group, NativeSelect, Text } from '@mantine/core';
import type { FormErrors, GetInputPropsReturnType } from '@mantine/form';
import { RAC_KIND_NAMES, RAC_KINDS } from '../../contracts/organisation';
import { FILING_WITHIN_MONTHS } from '../../contracts/scheme-year-rules';
import { dayWithin, type SchemeYearValues, YEAR_END_MONTHS, yearEndDays } from './scheme-fields';

/** What the fields need of a scheme form: its values, errors and field bindings. */
interface SchemeYearForm {
  values: SchemeYearValues;
  errors: FormErrors;
  getInputProps: (path: 'yearEndMonth' | 'yearEndDay' | 'racKind') => GetInputPropsReturnType;
  setFieldValue: (path: 'yearEndMonth' | 'yearEndDay', value: string) => void;
}

/**
 * The kind of an RAC (shown only while the type is RAC, and only where the person may set what
 * kind of scheme it is) and the scheme year's last day, chosen as a day and a month.
 */
export function SchemeYearFields({
  form,
  canSetKind = true,
}: {
  form: SchemeYearForm;
  /** Whether the person may say what kind of RAC it is: the broker's, as the type is. */
  canSetKind?: boolean;
}) {
  const month = form.getInputProps('yearEndMonth');
  return (
    <>
      {canSetKind && form.values.type === 'RAC' && (
        <NativeSelect
          label="Kind of RAC"
          required
          description="A trust RAC keeps the IORP II governance registers; an individual contract does not"
          data={[
            { value: '', label: 'Choose the kind of RAC' },
            ...RAC_KINDS.map((kind) => ({ value: kind, label: RAC_KIND_NAMES[kind] })),
          ]}
          {...form.getInputProps('racKind')}
        />
      )}
      <Fieldset
        legend="The scheme year ends on"
        variant="unstyled"
        aria-describedby="scheme-year-end-help"
      >
        <Group grow align="flex-start">
          <NativeSelect
            label="Day"
            data={yearEndDays(form.values.yearEndMonth).map((day) => ({
              value: day,
              label: String(Number(day)),
            }))}
            {...form.getInputProps('yearEndDay')}
            // The API names the year end as one field; its sentence shows under the day.
            error={form.errors.yearEndDay ?? form.errors.yearEnd}
          />
          <NativeSelect
            label="Month"
            data={[...YEAR_END_MONTHS]}
            {...month}
            onChange={(event) => {
              const chosen = event.currentTarget.value;
              form.setFieldValue('yearEndMonth', chosen);
              form.setFieldValue('yearEndDay', dayWithin(chosen, form.values.yearEndDay));
            }}
          />
        </Group>
        <Text id="scheme-year-end-help" size="xs" c="dimmed" mt={4}>
          The annual report and the annual scheme information return are due within{' '}
          {FILING_WITHIN_MONTHS} months of it.
        </Text>
      </Fieldset>
    </>
  );
}
