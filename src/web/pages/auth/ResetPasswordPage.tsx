import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import { AuthCard } from './AuthCard';
import { NewPasswordForm, tokenFromLink, useLinkCheck, useNewPassword } from './linkPassword';

/** What the page says of a link that can no longer set a password, before asking for one. */
export const DEAD_RESET_LINK =
  'This link no longer works: it has been used, it has expired, or a newer one replaced it. Ask for a new one.';

/**
 * `/reset-password#token=…`: the link is checked first, as an invitation's is, so a used or
 * expired one is said to be so at once, with no form (docs/decisions/0020-password-reset.md);
 * then the new password is chosen.
 */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromLink);
  const link = useLinkCheck(token, (token) =>
    api(apiRoutes.auth.resetLink, { body: { token } }).then(({ usable }) =>
      usable ? 'usable' : 'dead',
    ),
  );
  const [done, setDone] = useState<string | null>(null);
  const form = useNewPassword(
    async (password) => {
      const { message } = await api(apiRoutes.auth.resetPassword, { body: { token, password } });
      // The token is spent: keep it out of the address bar and the history.
      window.history.replaceState(null, '', '/reset-password');
      setDone(message);
    },
    () => DEAD_RESET_LINK,
  );

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
        <NewPasswordForm form={form} label="New password" submitLabel="Set password" />
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
