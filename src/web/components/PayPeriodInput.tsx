import { TextInput, type TextInputProps } from '@mantine/core';
import { formatIrishPeriod, parseIrishPeriod, todayInIreland } from '../../contracts/irish-dates';
import { FIELD_MESSAGES } from '../../contracts/plain-english';

/**
 * The one way a pay period is typed in the web UI (docs/decisions/0129-dates-shown-in-words.md):
 * month first, `MM/YYYY`, as payslips and the contributions file write it, read by the rule the
 * service reads that file with (`parseIrishPeriod` in contracts/irish-dates.ts). No browser month
 * picker: its form differs from browser to browser, and from this one.
 *
 * The form holds the text as typed; `readPayPeriod` gives the API's `YYYY-MM` of it, and
 * `payPeriodRule` refuses what cannot be read, under the field.
 */

/** The API's `YYYY-MM` of what was typed, or null when it cannot be read as a pay period. */
export function readPayPeriod(text: string): string | null {
  return parseIrishPeriod(text.trim());
}

/** A pay period `YYYY-MM` as the field shows it to start from: `MM/YYYY`. */
export function payPeriodEntry(period: string): string {
  return formatIrishPeriod(period);
}

/** This month's pay period in Ireland as the field shows it (docs/decisions/0050-irish-dates.md). */
export function currentPayPeriodEntry(now: Date = new Date()): string {
  return payPeriodEntry(todayInIreland(now).slice(0, 7));
}

/**
 * The field's placeholder: the form itself, in letters, so that it reads as a hint and never as a
 * period already filled in (a grey "10/2026" was taken for one).
 */
export const PAY_PERIOD_PLACEHOLDER = 'MM/YYYY';

/** The form rule of a pay period field: filled in, and readable month first. */
export function payPeriodRule(value: string): string | null {
  if (value.trim() === '') return FIELD_MESSAGES.required;
  return readPayPeriod(value) === null ? FIELD_MESSAGES.monthFirstPeriod : null;
}

export interface PayPeriodInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  /** The text as typed. */
  value?: string;
  onChange: (text: string) => void;
}

export function PayPeriodInput({
  value = '',
  onChange,
  onBlur,
  label = 'Pay period',
  description = 'Month first: MM/YYYY',
  placeholder = PAY_PERIOD_PLACEHOLDER,
  ...props
}: PayPeriodInputProps) {
  return (
    <TextInput
      label={label}
      description={description}
      placeholder={placeholder}
      autoComplete="off"
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => {
        onBlur?.(event);
        // A readable entry is written back as MM/YYYY on leaving, so what was understood is shown.
        const period = readPayPeriod(value);
        if (period !== null && formatIrishPeriod(period) !== value) {
          onChange(formatIrishPeriod(period));
        }
      }}
    />
  );
}
