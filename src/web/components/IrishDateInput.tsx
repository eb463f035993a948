import { DateInput, type DateInputProps } from '@mantine/dates';
import { useState } from 'react';
import { isIsoDate, readIrishDate } from '../../contracts/irish-dates';
import { FIELD_MESSAGES } from '../../contracts/plain-english';

/**
 * Dates typed the Irish way (docs/decisions/0050-irish-dates.md): day first, `DD/MM/YYYY`, whatever the browser's
 * language, or picked from the calendar. The entry is read by the rule the server reads CSV files
 * with (`contracts/irish-dates.ts`), never by the browser's own date parsing, which reads
 * `02/03/2026` as 3 February in an American browser.
 *
 * The form's value is the API's `YYYY-MM-DD` once the entry is a real day, `''` when the field is
 * empty, and otherwise the text as typed, so that an entry that cannot be read is never replaced
 * by the last good one or by nothing: `irishDateRule` refuses it, under the field, and the form is
 * not sent.
 */

/** What a person is told when an entry cannot be read as a date. */
export const DATE_FORMAT_MESSAGE = FIELD_MESSAGES.dayFirstDate;
export const NO_SUCH_DAY_MESSAGE = FIELD_MESSAGES.noSuchDay;

/** The form's value for what is typed: the ISO date, `''`, or the unreadable text itself. */
export function dateEntryValue(text: string): string {
  if (text.trim() === '') return '';
  const reading = readIrishDate(text);
  return reading.ok ? reading.value : text;
}

/** Why a value of this field cannot be sent, or null when it can (empty counts as readable). */
export function dateEntryProblem(value: string): string | null {
  if (value === '' || isIsoDate(value)) return null;
  const reading = readIrishDate(value);
  return !reading.ok && reading.reason === 'no_such_day'
    ? NO_SUCH_DAY_MESSAGE
    : DATE_FORMAT_MESSAGE;
}

/** The form rule of a date field: filled in where required, then readable day first. */
export function irishDateRule({ required }: { required: boolean }) {
  return (value: string): string | null =>
    value === '' ? (required ? FIELD_MESSAGES.required : null) : dateEntryProblem(value);
}

type Replaced = 'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser';

export interface IrishDateInputProps
  extends Omit<DateInputProps, Replaced | 'minDate' | 'maxDate'> {
  /** `YYYY-MM-DD`, `''`, or an entry that could not be read (see `dateEntryValue`). */
  value?: string;
  onChange: (value: string) => void;
  /** The first and last days the calendar offers (`YYYY-MM-DD`); typed days are the API's to judge. */
  minDate?: string;
  maxDate?: string;
}

/** Names for the calendar's controls, which show only an arrow or a month (WCAG 4.1.2). */
const CALENDAR_LABELS = {
  monthLevelControl: 'Choose the month',
  yearLevelControl: 'Choose the year',
  nextMonth: 'Next month',
  previousMonth: 'Previous month',
  nextYear: 'Next year',
  previousYear: 'Previous year',
  nextDecade: 'Next decade',
  previousDecade: 'Previous decade',
};

const readDate = (text: string) => {
  const reading = readIrishDate(text);
  return reading.ok ? reading.value : null;
};

export function IrishDateInput({
  value = '',
  onChange,
  onInput,
  onBlur,
  error,
  description,
  popoverProps,
  ...props
}: IrishDateInputProps) {
  // An unreadable entry is pointed out once the person leaves the field, not while they type.
  const [left, setLeft] = useState(false);
  // While the calendar is open (the DateInput opens it on focus), Escape closes the calendar, not
  // the dialog the field is in: Mantine's dialogs leave alone an Escape from an element marked so.
  const [calendarOpen, setCalendarOpen] = useState(false);
  const readable = value === '' || isIsoDate(value);
  const problem = left ? dateEntryProblem(value) : null;
  return (
    <DateInput
      placeholder="DD/MM/YYYY"
      description={description ?? 'Day first: DD/MM/YYYY'}
      ariaLabels={CALENDAR_LABELS}
      // Mantine greys out the neighbouring months' days and reddens weekends below the 4.5:1
      // contrast of WCAG AA; the days of the month shown, in the text colour, are enough.
      hideOutsideDates
      weekendDays={[]}
      {...props}
      value={isIsoDate(value) ? value : null}
      valueFormat="DD/MM/YYYY"
      dateParser={readDate}
      // A readable entry is rewritten as DD/MM/YYYY on leaving; an unreadable one stays as typed,
      // beside its error, instead of quietly going back to the last good date.
      fixOnBlur={readable}
      error={error ?? problem}
      data-mantine-stop-propagation={calendarOpen || undefined}
      popoverProps={{
        ...popoverProps,
        onOpen: () => {
          popoverProps?.onOpen?.();
          setCalendarOpen(true);
        },
        onClose: () => {
          popoverProps?.onClose?.();
          setCalendarOpen(false);
        },
      }}
      onInput={(event) => {
        onInput?.(event);
        setLeft(false);
        // Every keystroke: the DateInput itself only reports entries it can read.
        onChange(dateEntryValue(event.currentTarget.value));
      }}
      onChange={(picked) => onChange(picked ?? '')}
      onBlur={(event) => {
        onBlur?.(event);
        setLeft(true);
      }}
    />
  );
}
