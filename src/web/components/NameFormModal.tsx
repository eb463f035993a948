import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { RecordNameInput } from '../../contracts/organisation';
import { notifySuccess } from './notify';
import { useApiSubmit } from './useApiSubmit';
import { recordNameInput, validateWith } from './validation';

interface NameFormProps<T> {
  title: string;
  /** The label of the one field, e.g. "Employer name". */
  label: string;
  submitLabel: string;
  initialName?: string;
  /** Sends the name to the API; its answer is passed to `onSaved`. */
  save: (values: RecordNameInput) => Promise<T>;
  /** The notification shown once the API has accepted the name. */
  savedMessage: (values: RecordNameInput) => string;
  onSaved?: (answer: T) => void;
}

/** Creates or renames a record that is just a name (a broker firm, an employer), in a dialog. */
export function NameFormModal<T>({
  opened,
  onClose,
  ...form
}: NameFormProps<T> & { opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={form.title}
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Mounted only while open, so every opening starts from the initial name. */}
      {opened && <NameForm {...form} onClose={onClose} />}
    </Modal>
  );
}

function NameForm<T>({
  label,
  submitLabel,
  initialName = '',
  save,
  savedMessage,
  onSaved,
  onClose,
}: NameFormProps<T> & { onClose: () => void }) {
  const form = useForm<RecordNameInput>({
    initialValues: { name: initialName },
    validate: validateWith(recordNameInput),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const answer = await save(values);
    notifySuccess(savedMessage(values));
    onClose();
    onSaved?.(answer);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label={label} required data-autofocus {...form.getInputProps('name')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
