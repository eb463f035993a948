import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { ApiError, api } from '../../api/client';
import { AuthCard } from './AuthCard';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const { message } = await api(apiRoutes.auth.forgotPassword, { body: { email } });
      setAnswer(message);
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.status === 429
          ? 'Too many requests. Please wait a few minutes and try again.'
          : 'Please enter a valid e-mail address.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Reset your password">
      {answer ? (
        <Alert color="blue" role="status">
          {answer}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              Enter your e-mail address and we will send you a link to choose a new password.
            </Text>
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <TextInput
              label="E-mail address"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Send the link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/signin" size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
