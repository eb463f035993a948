import { Alert, Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { SecondFactorMethod } from '../../../contracts/second-factor';
import { ApiError } from '../../api/client';
import {
  passkeyProblem,
  passkeysSupported,
  promptForPasskey,
  verifyCode,
} from '../../auth/second-factor';

/**
 * The second step of a sign-in (docs/decisions/0110-second-factor.md): a passkey where the
 * account has one, or a code from the authenticator app, or one of the recovery codes. Every
 * refusal reads the same, as the service answers it.
 */
export function SecondStep({
  methods,
  onSignedIn,
  onStartAgain,
}: {
  methods: SecondFactorMethod[];
  onSignedIn: () => void;
  onStartAgain: () => void;
}) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const offersCode = methods.includes('totp') || methods.includes('recovery_code');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await verifyCode(code);
      onSignedIn();
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.status === 429
          ? 'Too many attempts. Please wait a few minutes and try again.'
          : error instanceof ApiError && error.status === 401
            ? 'That code did not work. Enter the code your app shows now, or a recovery code. If it keeps failing, sign in again.'
            : 'The service is unavailable. Please try again shortly.',
      );
      setBusy(false);
    }
  };

  const passkey = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await promptForPasskey();
      onSignedIn();
    } catch (error) {
      setProblem(passkeyProblem(error));
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm">Your password was right. Now confirm it is you.</Text>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {methods.includes('passkey') && passkeysSupported() && (
        <Button onClick={passkey} loading={busy} variant={offersCode ? 'light' : 'filled'}>
          Use a passkey
        </Button>
      )}
      {methods.includes('passkey') && offersCode && <Divider label="or" labelPosition="center" />}
      {offersCode && (
        <form onSubmit={submit} noValidate aria-label="Second step">
          <Stack gap="sm">
            <TextInput
              label="Code from your authenticator app"
              description={
                methods.includes('recovery_code')
                  ? 'Six digits from the app, or one of your recovery codes.'
                  : 'The six digits the app shows now.'
              }
              autoComplete="one-time-code"
              inputMode="text"
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Continue
            </Button>
          </Stack>
        </form>
      )}
      <Button variant="subtle" size="compact-sm" onClick={onStartAgain}>
        Sign in again
      </Button>
    </Stack>
  );
}
