import { Badge, Button, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import type { User } from '../api/types';
import { useSignedIn } from '../auth/session';
import { ConfirmModal } from './ConfirmModal';
import { notifySuccess } from './notify';

/**
 * Deactivate or reactivate an account, after a confirmation. Deactivating ends the account's
 * sessions at once (decisions.md §2); nobody deactivates themself, which the API refuses too.
 */
export function AccountStatusAction({ account }: { account: User }) {
  const { user } = useSignedIn();
  const client = useQueryClient();
  const [opened, setOpened] = useState(false);
  if (account.id === user.id) {
    return (
      <Text size="sm" c="dimmed">
        Your account
      </Text>
    );
  }
  const deactivating = account.status === 'active';
  const verb = deactivating ? 'Deactivate' : 'Reactivate';
  const change = async () => {
    await api<User>('PATCH', `/api/users/${encodeURIComponent(account.id)}`, {
      status: deactivating ? 'deactivated' : 'active',
    });
    await client.invalidateQueries({ queryKey: ['accounts'] });
    notifySuccess(
      deactivating
        ? `${account.name}'s account is deactivated.`
        : `${account.name}'s account is active again.`,
    );
  };
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color={deactivating ? 'red' : 'blue'}
        aria-label={`${verb} ${account.name}`}
        onClick={() => setOpened(true)}
      >
        {verb}
      </Button>
      <ConfirmModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`${verb} account`}
        confirmLabel={`${verb} account`}
        color={deactivating ? 'red' : 'blue'}
        onConfirm={change}
      >
        <Text>
          {deactivating
            ? `${account.name} (${account.email}) will be signed out at once and cannot sign in until the account is reactivated.`
            : `${account.name} (${account.email}) will be able to sign in again.`}
        </Text>
      </ConfirmModal>
    </>
  );
}

export function AccountStatusBadge({ account }: { account: User }) {
  return (
    // A coloured dot beside dark text: the light variant's coloured text is too faint to read
    // (WCAG contrast). As wide as its word: a narrow column would otherwise cut it to "ACTI…".
    <Badge color={account.status === 'active' ? 'green' : 'gray'} variant="dot" miw="max-content">
      {account.status === 'active' ? 'Active' : 'Deactivated'}
    </Badge>
  );
}
