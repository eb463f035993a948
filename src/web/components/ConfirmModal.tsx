import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { describeError } from '../api/client';

/**
 * Asks before an action that cannot simply be undone (a delete, closing a fund, a PPS reveal).
 * The action's failure is shown inside the dialog, which stays open so the person can retry or
 * cancel; on success the dialog closes itself.
 */
export function ConfirmModal({
  opened,
  onClose,
  title,
  children,
  confirmLabel,
  color = 'red',
  onConfirm,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setProblem(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await onConfirm();
      close();
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
      opened={opened}
      onClose={close}
      title={title}
      centered
    >
      <Stack gap="md">
        {children}
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button color={color} onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
