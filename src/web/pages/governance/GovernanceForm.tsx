import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/**
 * A governance register's dialog: mounted only while open, so each opening starts from a fresh
 * form, and its close button named for screen readers as the app's other dialogs are.
 */
export function FormModal({
  opened,
  title,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {opened && children}
    </Modal>
  );
}

/** The frame of every governance form: what the API refused as a whole above, then the buttons. */
export function FormShell({
  label,
  submit,
  busy,
  problem,
  submitLabel,
  onCancel,
  children,
}: {
  /** The form's name for assistive technology. */
  label: string;
  submit: (event?: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  problem: string | null;
  submitLabel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
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
