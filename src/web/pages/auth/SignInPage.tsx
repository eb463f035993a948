import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouter, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { signedIn } from '../../api/answers';
import { ApiError, api } from '../../api/client';
import { reloadSession } from '../../auth/session';
import { AuthCard } from './AuthCard';

export function SignInPage() {
  const navigate = useNavigate();
  const router = useRouter();
  const client = useQueryClient();
  // The page the person opened before being asked to sign in (validated by the route).
  const { next } = useSearch({ from: '/signin' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await api(signedIn, 'POST', '/api/auth/signin', { email, password });
      await reloadSession(client);
      if (next) router.history.push(next);
      else await navigate({ to: '/' });
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
