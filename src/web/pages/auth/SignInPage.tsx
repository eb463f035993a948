import {
  Alert,
  Anchor,
  Button,
  Divider,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouter, useSearch } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import type { SecondFactorMethod } from '../../../contracts/second-factor';
import { ApiError } from '../../api/client';
import {
  passkeyProblem,
  passkeysSupported,
  promptForPasskey,
  signInWithPassword,
} from '../../auth/second-factor';
import { reloadSession } from '../../auth/session';
import { AuthCard } from './AuthCard';
import { SecondStep } from './SecondStep';

/** How long a sign-in may take before the page says why it might be slow. */
const SLOW_SIGN_IN_MS = 2_500;

/** True once `running` has stayed true for `ms`; false again as soon as it stops. */
function useAfter(running: boolean, ms: number): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    setLate(false);
    if (!running) return;
    const timer = setTimeout(() => setLate(true), ms);
    return () => clearTimeout(timer);
  }, [running, ms]);
  return late;
}

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
  // A sign-in that takes this long is most likely held back by the account's slow-down
  // (docs/decisions/0018-slowing-guesses-at-one-account.md): say so rather than spin in silence.
  const slow = useAfter(busy, SLOW_SIGN_IN_MS);
  // Set when the password was right and a second factor is needed (docs/decisions/0110-second-factor.md).
  const [secondStep, setSecondStep] = useState<SecondFactorMethod[] | null>(null);

  /**
   * Signed in: on to the page the person set out for. An account that must set up a second
   * factor first is shown how there, in that page's place (layout/AppLayout.tsx).
   */
  const finish = async () => {
    await reloadSession(client);
    if (next) router.history.push(next);
    else await navigate({ to: '/' });
  };

  const withPasskey = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await promptForPasskey();
      await finish();
    } catch (error) {
      setProblem(passkeyProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const answer = await signInWithPassword(email, password);
      if ('mfaRequired' in answer) {
        setPassword('');
        setSecondStep(answer.methods);
        return;
      }
      await finish();
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

  if (secondStep) {
    return (
      <AuthCard title="Sign in">
        <SecondStep
          methods={secondStep}
          onSignedIn={finish}
          onStartAgain={() => setSecondStep(null)}
        />
      </AuthCard>
    );
  }

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
          {slow && (
            <Text size="sm" role="status">
              Still checking. After several sign-in attempts to one account in a short time, each
              further attempt is slowed down for a while, to protect the account.
            </Text>
          )}
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot your password?
          </Anchor>
        </Stack>
      </form>
      {passkeysSupported() && (
        <>
          <Divider label="or" labelPosition="center" />
          <Button variant="light" onClick={withPasskey} loading={busy}>
            Use a passkey instead
          </Button>
        </>
      )}
    </AuthCard>
  );
}
