import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { PASSWORD_RULE_TEXT, passwordProblem } from '../../../contracts/passwords';
import { ApiError, api } from '../../api/client';
import { usePasswordProblem } from '../../components/usePasswordProblem';
import { AuthCard } from './AuthCard';

/** The token travels in the link's fragment, which browsers never send to a server or a referrer. */
function tokenFromLink(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/** What the page says of a link that can no longer set a password, before asking for one. */
export const DEAD_RESET_LINK =
  'This link no longer works: it has been used, it has expired, or a newer one replaced it. Ask for a new one.';

/** How far the page has got in checking the link: checking, usable or dead, or unknown (not checked). */
type LinkCheck = 'checking' | 'usable' | 'dead' | 'unknown';

/**
 * `/reset-password#token=…`: the link is checked first, as an invitation's is, so a used or
 * expired one is said to be so at once, with no form (docs/decisions/0020-password-reset.md);
 * then the new password is chosen.
 */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromLink);
  const [link, setLink] = useState<LinkCheck>(token === '' ? 'unknown' : 'checking');
  useEffect(() => {
    if (token === '') return;
    let current = true;
    api(apiRoutes.auth.resetLink, { body: { token } }).then(
      ({ usable }) => {
        if (current) setLink(usable ? 'usable' : 'dead');
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
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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
      const { message } = await api(apiRoutes.auth.resetPassword, {
        body: { token, password },
      });
      // The token is spent: keep it out of the address bar and the history.
      window.history.replaceState(null, '', '/reset-password');
      setDone(message);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        setProblem('Too many attempts. Please wait a few minutes and try again.');
      } else if (error instanceof ApiError && error.issues.length > 0) {
        // The password's refusal (a breached password, which only the service's list holds).
        setRefusal({ password, message: error.issues.map((issue) => issue.message).join('; ') });
      } else {
        setProblem(DEAD_RESET_LINK);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={link === 'dead' ? 'Your password-reset link' : 'Choose a new password'}>
      {done ? (
        <Alert color="green" role="status">
          {done}
        </Alert>
      ) : token === '' ? (
        <Alert color="red" role="alert">
          This page needs the link from your e-mail. Ask for a new one if it has expired.
        </Alert>
      ) : link === 'checking' ? (
        <Text size="sm" role="status">
          Checking your link…
        </Text>
      ) : link === 'dead' ? (
        <Alert color="red" role="alert">
          {DEAD_RESET_LINK}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <PasswordInput
              label="New password"
              description={PASSWORD_RULE_TEXT}
              error={fieldProblem}
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <PasswordInput
              label="New password again"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(event) => setConfirmation(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Set password
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/signin" size="sm">
        Sign in
      </Anchor>
      <Anchor component={Link} to="/forgot-password" size="sm">
        Ask for a new link
      </Anchor>
    </AuthCard>
  );
}
