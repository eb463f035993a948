import { Group, TextInput } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { todayInIreland } from '../../contracts/irish-dates';
import { IrishDateInput } from './IrishDateInput';

type InputProps = ReturnType<ReturnType<typeof useForm>['getInputProps']>;

/**
 * A moment typed as people say it: a day (not after today) and a time on the 24-hour clock, in
 * Ireland, side by side; each field labelled with what the moment is ("Became aware: day").
 */
export function MomentFields({
  label,
  day,
  time,
  autofocus = false,
}: {
  label: string;
  day: InputProps;
  time: InputProps;
  autofocus?: boolean;
}) {
  return (
    <Group grow align="flex-start">
      <IrishDateInput
        label={`${label}: day`}
        required
        maxDate={todayInIreland(new Date())}
        data-autofocus={autofocus || undefined}
        {...(day as { value: string; onChange: (value: string) => void })}
      />
      <TextInput
        label={`${label}: time`}
        description="24-hour clock, Irish time: HH:MM"
        placeholder="HH:MM"
        inputMode="numeric"
        required
        {...time}
      />
    </Group>
  );
}
