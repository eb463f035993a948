import { Badge, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../contracts/api-routes';
import { api } from '../api/client';
import type { User } from '../api/types';
import { mayManage } from '../auth/can';
import { useSignedIn } from '../auth/session';
import { ConfirmModal } from './ConfirmModal';
import { notifySuccess } from './notify';
import { SecondFactorReset } from './SecondFactorReset';
import { useResendInvitation } from './useResendInvitation';

/** An invitation whose link no longer works: staff resend it. */
export const invitationExpired = (
  account: Pick<User, 'status' | 'invitedUntil'>,
  now = Date.now(),
) =>
  account.status === 'invited' &&
  account.invitedUntil !== null &&
  Date.parse(account.invitedUntil) <= now;

/**
 * Deactivate or reactivate an account, after a confirmation, and resend an invitation that has not
 * been accepted. Deactivating ends the account's sessions at once (docs/api.md, "Signing in"), or
 * withdraws its invitation; nobody deactivates themself, which the API refuses too. Each is offered
 * only where the person may carry it out on this account (mayManage): an employer's administrator
 * looks after their payroll colleagues and members, and the broker after the rest.
 */
export function AccountStatusAction({ account }: { account: User }) {
  const session = useSignedIn();
  const { user } = session;
  const client = useQueryClient();
  const [opened, setOpened] = useState(false);
  const resend = useResendInvitation(account.id, {
    refresh: () => client.invalidateQueries({ queryKey: ['accounts'] }),
    sentTo: account.name,
  });
  if (account.id === user.id) {
    return (
      <Text size="sm" c="dimmed">
        Your account
      </Text>
    );
  }
  const mayResend =
    account.status === 'invited' && mayManage(session, 'user.invitation.resend', account);
  const mayChange = mayManage(session, 'user.update', account);
  if (!mayResend && !mayChange) {
    return (
      <Text size="sm" c="dimmed">
        Looked after by your broker
      </Text>
    );
  }
  const deactivating = account.status !== 'deactivated';
  const verb = deactivating ? 'Deactivate' : 'Reactivate';
  const change = async () => {
    await api(apiRoutes.users.update, {
      params: { id: account.id },
      body: { status: deactivating ? 'deactivated' : 'active' },
    });
    await client.invalidateQueries({ queryKey: ['accounts'] });
    notifySuccess(
      deactivating
        ? `${account.name}'s account is deactivated.`
        : `${account.name}'s account is active again.`,
    );
  };
  const consequence = !deactivating
    ? `${account.name} (${account.email}) will be able to sign in again.`
    : account.status === 'invited'
      ? `The invitation sent to ${account.name} (${account.email}) will stop working.`
      : `${account.name} (${account.email}) will be signed out at once and cannot sign in until the account is reactivated.`;
  return (
    <Group gap="xs" wrap="nowrap">
      {mayResend && (
        <Button
          size="compact-sm"
          variant="light"
          aria-label={`Resend the invitation to ${account.name}`}
          loading={resend.busy}
          onClick={resend.run}
        >
          Resend invitation
        </Button>
      )}
      {mayChange && (
        <Button
          size="compact-sm"
          variant="light"
          color={deactivating ? 'red' : 'blue'}
          aria-label={`${verb} ${account.name}`}
          onClick={() => setOpened(true)}
        >
          {verb}
        </Button>
      )}
      <SecondFactorReset account={account} />
      <ConfirmModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`${verb} account`}
        confirmLabel={`${verb} account`}
        color={deactivating ? 'red' : 'blue'}
        onConfirm={change}
      >
        <Text>{consequence}</Text>
      </ConfirmModal>
    </Group>
  );
}

const BADGES = {
  active: { color: 'green', label: 'Active' },
  invited: { color: 'blue', label: 'Invited' },
  expired: { color: 'orange', label: 'Invitation expired' },
  deactivated: { color: 'gray', label: 'Deactivated' },
} as const;

export function AccountStatusBadge({ account }: { account: User }) {
  const badge = BADGES[invitationExpired(account) ? 'expired' : account.status];
  return (
    // A coloured dot beside dark text: the light variant's coloured text is too faint to read
    // (WCAG contrast). As wide as its words: a narrow column would otherwise cut it to "ACTI…".
    <Badge color={badge.color} variant="dot" miw="max-content">
      {badge.label}
    </Badge>
  );
}
