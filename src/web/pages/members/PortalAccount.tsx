import { Badge, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { momentInWords } from '../../../contracts/irish-dates';
import type { MemberPageView } from '../../../contracts/portal';
import type { Member } from '../../api/types';
import { can, mayManage, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { invitationExpired } from '../../components/AccountStatus';
import { NewAccountButton } from '../../components/NewAccountButton';
import { useResendInvitation } from '../../components/useResendInvitation';
import { memberPageKey } from './member-page-cache';

type Account = NonNullable<NonNullable<MemberPageView['portalAccount']>['account']>;

/**
 * The member's own account for the member portal, where the page's reader invites members
 * (docs/decisions/0143-who-invites-whom.md): "Invite to the member portal" while the member has
 * none; once invited, until when the link works and, for those who may, a new link; once set up,
 * that it is. The state comes with the page (`portalAccount`), read again after a change.
 */
export function PortalAccount({
  member,
  portalAccount,
}: {
  member: Member;
  portalAccount: MemberPageView['portalAccount'];
}) {
  const session = useSignedIn();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: memberPageKey(member.id) });
  if (portalAccount === null) return null;
  const held = portalAccount.account;
  if (held === null) {
    if (!can(session, 'employer.users.create', memberRow(member))) return null;
    return (
      <NewAccountButton
        target={{ route: apiRoutes.employers.createUser, params: { id: member.employerId } }}
        member={{
          id: member.id,
          name: `${member.firstName} ${member.lastName}`,
          email: member.email,
        }}
        onCreated={refresh}
      />
    );
  }
  return <AccountState account={held} member={member} onResent={refresh} />;
}

function AccountState({
  account,
  member,
  onResent,
}: {
  account: Account;
  member: Member;
  onResent: () => Promise<void>;
}) {
  const session = useSignedIn();
  const resend = useResendInvitation(account.id, {
    refresh: onResent,
    sentTo: 'the member',
  });
  if (account.status === 'active') {
    return (
      <Badge color="green" variant="dot" miw="max-content">
        Member portal account set up
      </Badge>
    );
  }
  if (account.status === 'deactivated') {
    return (
      <Badge color="gray" variant="dot" miw="max-content">
        Member portal account deactivated
      </Badge>
    );
  }
  const until = account.invitedUntil ?? '';
  const expired = invitationExpired(account);
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm">
        {expired
          ? `Invited to the member portal; the link stopped working on ${momentInWords(until)}`
          : `Invited to the member portal; the link works until ${momentInWords(until)}`}
      </Text>
      {mayManage(session, 'user.invitation.resend', {
        role: 'Member',
        brokerId: member.brokerId,
        employerId: member.employerId,
      }) && (
        <Button size="compact-sm" variant="light" loading={resend.busy} onClick={resend.run}>
          Send a new link
        </Button>
      )}
    </Group>
  );
}
