import {
  Alert,
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { todayInIreland } from '../../../contracts/irish-dates';
import { MEMBER_STATUS_NAMES, MEMBER_STATUSES } from '../../../contracts/members';
import { euroFieldError, plainEuro, readEuro } from '../../../contracts/money';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import type { Member, MemberStatus } from '../../api/types';
import { showApiErrors } from '../../components/forms';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';

export const MEMBER_STATUS_OPTIONS: { value: MemberStatus; label: string }[] = MEMBER_STATUSES.map(
  (value) => ({ value, label: MEMBER_STATUS_NAMES[value] }),
);

/**
 * The form's fields carry the API's field names, so that each validation issue of the API lands
 * under its own input; the salary is typed in euro and sent as `salaryCents`.
 */
interface MemberFormValues {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
  address: string;
  dateJoined: string;
  salaryCents: string;
  status: MemberStatus;
  ppsNumber: string;
}

/** The body of POST /api/schemes/:id/members. */
export type MemberBody = Partial<{
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string | null;
  address: string | null;
  dateJoined: string;
  salaryCents: number;
  status: MemberStatus;
  ppsNumber: string;
}>;

/**
 * The changed fields for PATCH /api/members/:id: never the status, which changes only by the
 * membership's own steps (docs/decisions/0135-members-lifecycle.md).
 */
export type MemberChanges = Omit<MemberBody, 'status'>;

function valuesOf(member: Member | undefined): MemberFormValues {
  return {
    firstName: member?.firstName ?? '',
    lastName: member?.lastName ?? '',
    dateOfBirth: member?.dateOfBirth ?? '',
    email: member?.email ?? '',
    address: member?.address ?? '',
    dateJoined: member?.dateJoined ?? '',
    salaryCents: member ? plainEuro(member.salaryCents) : '',
    status: member?.status ?? 'active',
    ppsNumber: '',
  };
}

/** The body of a form whose salary the money rule has read as `salaryCents`. */
function bodyOf(values: MemberFormValues, salaryCents: number): Required<MemberBody> {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    dateOfBirth: values.dateOfBirth,
    email: values.email.trim() === '' ? null : values.email.trim(),
    address: values.address.trim() === '' ? null : values.address.trim(),
    dateJoined: values.dateJoined,
    salaryCents,
    status: values.status,
    ppsNumber: values.ppsNumber.trim(),
  };
}

/** Only what differs from the member as loaded: the audit record names the fields changed. */
function changesOf(member: Member, body: Required<MemberBody>): MemberChanges {
  const changes: MemberChanges = {};
  for (const key of Object.keys(body) as (keyof MemberBody)[]) {
    if (key === 'ppsNumber' || key === 'status') continue;
    if (body[key] !== member[key]) Object.assign(changes, { [key]: body[key] });
  }
  if (body.ppsNumber !== '') changes.ppsNumber = body.ppsNumber;
  return changes;
}

/** Adding a member, in any status (one taken on with their history), or correcting one. */
type MemberFormProps = { submitLabel: string; onCancel: () => void } & (
  | { member?: undefined; onSubmit: (body: MemberBody) => Promise<unknown> }
  | { member: Member; onSubmit: (changes: MemberChanges) => Promise<unknown> }
);

/**
 * Adding a member (no `member`) or correcting one. Required fields are checked here only for being
 * empty, with the API's own wording, and dates for being readable as typed (day first,
 * docs/decisions/0050-irish-dates.md); every other rule is the API's, shown under its field. The
 * status is chosen when a member is added; after that it changes only by the membership's steps.
 */
export function MemberForm(props: MemberFormProps) {
  const { member, submitLabel, onCancel } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const required = (message: string) => (value: string) => (value.trim() === '' ? message : null);
  const form = useForm<MemberFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(member),
    validate: {
      firstName: required(FIELD_MESSAGES.firstName),
      lastName: required(FIELD_MESSAGES.lastName),
      dateOfBirth: irishDateRule({ required: true }),
      dateJoined: irishDateRule({ required: true }),
      salaryCents: (value) => euroFieldError(value),
      // A new member needs a PPS number; a correction leaves the one on file when this is empty.
      ppsNumber: (value) => (member ? null : required(FIELD_MESSAGES.ppsNumber)(value)),
    },
  });

  // The calendar offers no day after today in Ireland (the API refuses a birth date after it).
  const today = todayInIreland(new Date());

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    // The form's rule has shown why a salary is not read; nothing is sent.
    const salary = readEuro(values.salaryCents);
    if (!salary.ok) return;
    const body = bodyOf(values, salary.cents);
    try {
      if (props.member === undefined) {
        await props.onSubmit(body);
      } else {
        const changes = changesOf(props.member, body);
        if (Object.keys(changes).length === 0) {
          onCancel();
          return;
        }
        await props.onSubmit(changes);
      }
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
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="First name" required {...form.getInputProps('firstName')} />
          <TextInput label="Last name" required {...form.getInputProps('lastName')} />
          <IrishDateInput
            label="Date of birth"
            required
            maxDate={today}
            {...form.getInputProps('dateOfBirth')}
          />
          <IrishDateInput
            label="Date joined"
            required
            maxDate={today}
            {...form.getInputProps('dateJoined')}
          />
          <TextInput
            label="Salary (€ a year)"
            inputMode="decimal"
            required
            placeholder="45,000.00"
            {...form.getInputProps('salaryCents')}
          />
          {!member && (
            <Select
              label="Status"
              data={MEMBER_STATUS_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('status')}
            />
          )}
          <TextInput
            label="E-mail address"
            type="email"
            autoComplete="off"
            {...form.getInputProps('email')}
          />
          <TextInput
            label="PPS number"
            required={!member}
            autoComplete="off"
            spellCheck={false}
            description={
              member
                ? 'Leave empty to keep the number on file; type a number only to correct it.'
                : '7 digits and a check letter, e.g. 1234567T'
            }
            {...form.getInputProps('ppsNumber')}
          />
        </SimpleGrid>
        <Textarea label="Postal address" autosize minRows={2} {...form.getInputProps('address')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
