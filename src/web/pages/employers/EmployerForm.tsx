import {
  Alert,
  Button,
  Fieldset,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { PAYROLL_FREQUENCIES, PAYROLL_FREQUENCY_NAMES } from '../../../contracts/organisation';
import { api } from '../../api/client';
import type { Employer } from '../../api/types';
import {
  type EmployerEditValues,
  employerChangeBody,
  employerEditValues,
  validateEmployerEdit,
} from '../../components/employer-fields';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';

/** "Edit employer": its name and the details a broker keeps, in a dialog. */
export function EmployerFormModal({
  employer,
  opened,
  onClose,
  onSaved,
}: {
  employer: Employer;
  opened: boolean;
  onClose: () => void;
  onSaved: (saved: Employer) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Edit employer"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Mounted only while open, so every opening starts from the employer as it is. */}
      {opened && <EmployerForm employer={employer} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function EmployerForm({
  employer,
  onClose,
  onSaved,
}: {
  employer: Employer;
  onClose: () => void;
  onSaved: (saved: Employer) => void;
}) {
  const client = useQueryClient();
  const form = useForm<EmployerEditValues>({
    initialValues: employerEditValues(employer),
    validate: validateEmployerEdit,
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const change = employerChangeBody(employer, values);
    if (Object.keys(change).length === 0) {
      onClose();
      return;
    }
    const saved = await api(apiRoutes.employers.update, {
      params: { id: employer.id },
      body: change,
    });
    onSaved(saved);
    await client.invalidateQueries({ queryKey: ['employers'] });
    notifySuccess(`“${saved.name}” saved.`);
    onClose();
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label="Employer name" required data-autofocus {...form.getInputProps('name')} />
        <Group grow align="flex-start">
          <TextInput
            label="CRO number"
            description="Companies Registration Office"
            inputMode="numeric"
            {...form.getInputProps('croNumber')}
          />
          <TextInput
            label="Employer registration number"
            description="Revenue’s PAYE number, like 1234567T"
            {...form.getInputProps('employerRegistrationNumber')}
          />
        </Group>
        <Textarea
          label="Registered address"
          autosize
          minRows={3}
          {...form.getInputProps('registeredAddress')}
        />
        <NativeSelect
          label="Payroll frequency"
          data={[
            { value: '', label: 'Not recorded' },
            ...PAYROLL_FREQUENCIES.map((frequency) => ({
              value: frequency,
              label: PAYROLL_FREQUENCY_NAMES[frequency],
            })),
          ]}
          {...form.getInputProps('payrollFrequency')}
        />
        <Fieldset legend="Contact person" variant="unstyled">
          <Stack gap="sm">
            <TextInput
              label="Contact name"
              autoComplete="off"
              {...form.getInputProps('contactName')}
            />
            <Group grow align="flex-start">
              <TextInput
                label="Contact e-mail address"
                type="email"
                autoComplete="off"
                {...form.getInputProps('contactEmail')}
              />
              <TextInput
                label="Contact phone"
                type="tel"
                autoComplete="off"
                {...form.getInputProps('contactPhone')}
              />
            </Group>
          </Stack>
        </Fieldset>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
