import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { InvitationLinkState, InvitedTo } from '../../../contracts/accounts';
import { apiRoutes } from '../../../contracts/api-routes';
import { invitationPurpose } from '../../../contracts/invitations';
import { PRODUCT_NAME } from '../../../contracts/product';
import { ApiError, api } from '../../api/client';
import { reloadSession } from '../../auth/session';
import { AuthCard } from './AuthCard';
import { NewPasswordForm, tokenFromLink, useLinkCheck, useNewPassword } from './linkPassword';

/**
 * What the page says of a link that can no longer set a password, before asking for one
 * (docs/decisions/0125-invitation-link-checked-first.md).
 */
export const CLOSED_LINK: Record<ClosedLink, string> = {
  used: 'This invitation has been used already: the password was chosen through it. Sign in with that password, or reset it if you have forgotten it.',
  expired: 'This invitation link has expired. Ask whoever invited you to send a new one.',
  not_valid:
    'This invitation link no longer works: a newer invitation may have replaced it, or it was withdrawn. Use the link in the latest invitation e-mail, or ask whoever invited you to send a new one.',
};

/** A link that can no longer set a password. */
type ClosedLink = Exclude<InvitationLinkState, 'open'>;

/**
 * Who invites, to what, in the invitation e-mail's words (docs/decisions/0044-invitations.md):
 * "Development Brokers Ltd has invited you to Pension Administration as an employer administrator,
 * to look after the pension schemes of Kerrigan Bakeries Ltd." Without the link's answer, the
 * product alone.
 */
export function invitationSentence(invitation: InvitedTo | null): string {
  if (invitation === null) return `You have been invited to ${PRODUCT_NAME}.`;
  const who =
    invitation.firm === null ? 'You have been invited' : `${invitation.firm} has invited you`;
  const purpose = invitationPurpose(invitation.role, invitation.employer, invitation.scheme);
  return `${who} to ${PRODUCT_NAME} ${purpose}.`;
}

/**
 * `/accept-invitation#token=…`: the link is checked first, so a used or expired one is said to be
 * so at once; then the invited person chooses their password and is signed in straight away,
 * landing on their home page.
 */
export function AcceptInvitationPage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [token] = useState(tokenFromLink);
  const link = useLinkCheck(token, (token) =>
    api(apiRoutes.auth.invitationLink, { body: { token } }),
  );
  /** What an open link is to, from its check; null until then, or when it could not be made. */
  const invitedTo = typeof link === 'object' && link.state === 'open' ? link.invitation : null;
  const closed: ClosedLink | null =
    typeof link === 'object' && link.state !== 'open' ? link.state : null;
  const form = useNewPassword(
    async (password) => {
      await api(apiRoutes.auth.acceptInvitation, { body: { token, password } });
      // The token is spent: keep it out of the address bar and the history.
      window.history.replaceState(null, '', '/accept-invitation');
      await reloadSession(client);
      await navigate({ to: '/' });
    },
    (error) =>
      error instanceof ApiError && error.status === 409
        ? error.message
        : error instanceof ApiError && error.status === 400
          ? 'This invitation link is not valid or has expired. Ask whoever invited you to send a new one.'
          : 'The service is busy. Please try again shortly.',
  );

  return (
    <AuthCard title={closed ? 'Your invitation link' : 'Set your password'}>
      {token === '' ? (
        <Alert color="red" role="alert">
          This page needs the link from your invitation e-mail. Ask whoever invited you to send a
          new one if it has expired.
        </Alert>
      ) : link === 'checking' ? (
        <Text size="sm" role="status">
          Checking your invitation link…
        </Text>
      ) : closed ? (
        <Stack gap="sm">
          <Alert color={closed === 'used' ? 'blue' : 'red'} role="alert">
            {CLOSED_LINK[closed]}
          </Alert>
          {closed === 'used' && (
            <Anchor component={Link} to="/forgot-password" size="sm">
              Reset your password
            </Anchor>
          )}
        </Stack>
      ) : (
        <NewPasswordForm
          form={form}
          intro={
            <Text size="sm">
              {invitationSentence(invitedTo)} Choose the password you will sign in with: you are
              signed in as soon as it is set.
            </Text>
          }
          label="Password"
          submitLabel="Set password and sign in"
        />
      )}
      <Anchor component={Link} to="/signin" size="sm">
        I already have an account: sign in
      </Anchor>
    </AuthCard>
  );
}
