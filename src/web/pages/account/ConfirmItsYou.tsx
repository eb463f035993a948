import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { STEP_UP_REQUIRED } from '../../../contracts/second-factor';
import { ApiError } from '../../api/client';
import {
  confirmCode,
  passkeyProblem,
  passkeysSupported,
  promptForPasskey,
} from '../../auth/second-factor';

/** Whether a refusal asks for the second factor to be confirmed again first. */
export function needsStepUp(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.error === STEP_UP_REQUIRED;
}

/**
 * Runs an action that may need a recent second factor. When the service asks for one,
 * `confirmation` (placed by the page where it reads best) asks the person to confirm it is them,
 * and the action runs again once they have; any other failure goes to `onError`.
 */
export function useStepUp(): {
  run: (action: () => Promise<void>, onError: (error: unknown) => void) => Promise<void>;
  /** The prompt while one is asked for, otherwise null. */
  confirmation: ReactNode;
  /** Drops the action waiting for a confirmation (a dialog holding the prompt was closed). */
  cancel: () => void;
} {
  const [waiting, setWaiting] = useState<(() => Promise<void>) | null>(null);
  const run = async (action: () => Promise<void>, onError: (error: unknown) => void) => {
    try {
      await action();
    } catch (error) {
      if (needsStepUp(error)) setWaiting(() => () => run(action, onError));
      else onError(error);
    }
  };
  const confirmation =
    waiting === null ? null : (
      <ConfirmItsYou
        onCancel={() => setWaiting(null)}
        onConfirmed={() => {
          setWaiting(null);
          void waiting();
        }}
      />
    );
  return { run, confirmation, cancel: () => setWaiting(null) };
}

/**
 * Confirming it is you again, for an action that needs a second factor confirmed in the last five
 * minutes (docs/decisions/0110-second-factor.md): a code from the app, a recovery code, or a
 * passkey. `onConfirmed` then repeats the action.
 */
export function ConfirmItsYou({
  onConfirmed,
  onCancel,
}: {
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await confirmCode(code);
      onConfirmed();
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.status === 429
          ? 'Too many attempts. Please wait a few minutes and try again.'
          : 'That code did not work. Enter the code your app shows now, or a recovery code.',
      );
    } finally {
      setBusy(false);
    }
  };

  const passkey = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await promptForPasskey();
      onConfirmed();
    } catch (error) {
      setProblem(passkeyProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      <Alert color="yellow">{STEP_UP_REQUIRED}</Alert>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label="Confirm it is you">
        <Stack gap="sm">
          <TextInput
            label="Code from your authenticator app"
            description="Or one of your recovery codes."
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Confirm
            </Button>
            {passkeysSupported() && (
              <Button variant="light" onClick={passkey} loading={busy}>
                Use a passkey
              </Button>
            )}
            <Button variant="subtle" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
      <Text size="xs" c="dimmed">
        Once confirmed, what you asked for goes ahead.
      </Text>
    </Stack>
  );
}
