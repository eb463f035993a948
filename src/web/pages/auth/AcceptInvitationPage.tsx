import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import type { InvitationLinkState, InvitedTo } from '../../../contracts/accounts';
import { apiRoutes } from '../../../contracts/api-routes';
import { invitationPurpose } from '../../../contracts/invitations';
import { PASSWORD_RULE_TEXT, passwordProblem } from '../../../contracts/passwords';
import { PRODUCT_NAME } from '../../../contracts/product';
import { ApiError, api } from '../../api/client';
import { reloadSession } from '../../auth/session';
import { usePasswordProblem } from '../../components/usePasswordProblem';
import { AuthCard } from './AuthCard';

/** The token travels in the link's fragment, which browsers never send to a server or a referrer. */
function tokenFromLink(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/**
 * What the page says of a link that can no longer set a password, before asking for one
 * (docs/decisions/0125-invitation-link-checked-first.md).
 */
export const CLOSED_LINK: Record<Exclude<InvitationLinkState, 'open'>, string> = {
  used: 'This invitation has been used already: the password was chosen through it. Sign in with that password, or reset it if you have forgotten it.',
  expired: 'This invitation link has expired. Ask whoever invited you to send a new one.',
  not_valid:
    'This invitation link no longer works: a newer invitation may have replaced it, or it was withdrawn. Use the link in the latest invitation e-mail, or ask whoever invited you to send a new one.',
};

/** How far the page has got in checking the link: checking, its state, or unknown (not checked). */
type LinkCheck = 'checking' | InvitationLinkState | 'unknown';

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
  const [link, setLink] = useState<LinkCheck>(token === '' ? 'unknown' : 'checking');
  /** What an open link is to, from its check; null until then, or when it could not be made. */
  const [invitedTo, setInvitedTo] = useState<InvitedTo | null>(null);
  useEffect(() => {
    if (token === '') return;
    let current = true;
    api(apiRoutes.auth.invitationLink, { body: { token } }).then(
      (answer) => {
        if (!current) return;
        setLink(answer.state);
        if (answer.state === 'open') setInvitedTo(answer.invitation);
      },
      // Not checked (too many checks from this address, the connection dropped): the form is
      // shown, and setting the password checks the link again.
      () => {
        if (current) setLink('unknown');
      },
    );
    return () => {
      current = false;
    };
  }, [token]);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const typedProblem = usePasswordProblem(password);
  /** The service's own refusal of the password, shown under the field until it is changed. */
  const [refusal, setRefusal] = useState<{ password: string; message: string } | null>(null);
  const fieldProblem =
    refusal?.password === password ? refusal.message : password.length > 0 ? typedProblem : null;
  const [busy, setBusy] = useState(false);

  const closed = link === 'used' || link === 'expired' || link === 'not_valid';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    // The rule the service applies, checked here first (src/contracts/passwords.ts).
    // Should its dictionaries fail to load, the service still checks.
    const weak = await passwordProblem(password).catch(() => null);
    if (weak !== null) {
      setRefusal({ password, message: weak });
      return;
    }
    if (password !== confirmation) {
      setProblem('The two passwords do not match.');
      return;
    }
    setBusy(true);
    try {
      await api(apiRoutes.auth.acceptInvitation, { body: { token, password } });
      // The token is spent: keep it out of the address bar and the history.
      window.history.replaceState(null, '', '/accept-invitation');
      await reloadSession(client);
      await navigate({ to: '/' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        setProblem('Too many attempts. Please wait a few minutes and try again.');
      } else if (error instanceof ApiError && error.issues.length > 0) {
        // The password's refusal (a breached password, which only the service's list holds).
        setRefusal({ password, message: error.issues.map((issue) => issue.message).join('; ') });
      } else if (error instanceof ApiError && error.status === 409) {
        setProblem(error.message);
      } else if (error instanceof ApiError && error.status === 400) {
        setProblem(
          'This invitation link is not valid or has expired. Ask whoever invited you to send a new one.',
        );
      } else {
        setProblem('The service is busy. Please try again shortly.');
      }
    } finally {
      setBusy(false);
    }
  };

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
          <Alert color={link === 'used' ? 'blue' : 'red'} role="alert">
            {CLOSED_LINK[link]}
          </Alert>
          {link === 'used' && (
            <Anchor component={Link} to="/forgot-password" size="sm">
              Reset your password
            </Anchor>
          )}
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              {invitationSentence(invitedTo)} Choose the password you will sign in with: you are
              signed in as soon as it is set.
            </Text>
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <PasswordInput
              label="Password"
              description={PASSWORD_RULE_TEXT}
              error={fieldProblem}
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <PasswordInput
              label="Password again"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(event) => setConfirmation(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Set password and sign in
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/signin" size="sm">
        I already have an account: sign in
      </Anchor>
    </AuthCard>
  );
}
