import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../../api/client';
import { SESSION_KEY } from '../../auth/session';
import { AuthCard } from './AuthCard';

export function SignInPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await api('POST', '/api/auth/signin', { email, password });
      await client.invalidateQueries({ queryKey: SESSION_KEY });
      await navigate({ to: '/' });
    } catch (error) {
      // The service's own generic message: it never says whether the address has an account.
      setProblem(
        error instanceof ApiError && error.status === 429
          ? 'Too many sign-in attempts. Please wait a minute and try again.'
          : error instanceof ApiError && error.status === 401
            ? 'Invalid email or password'
            : 'The service is unavailable. Please try again shortly.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
          <TextInput
            label="E-mail address"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot your password?
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
