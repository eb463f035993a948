import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { PASSWORD_RULE_TEXT, passwordProblem } from '../../../contracts/passwords';
import { ApiError } from '../../api/client';
import { usePasswordProblem } from '../../components/usePasswordProblem';

/**
 * What the two pages opened from an e-mailed link share, the invitation's and the password
 * reset's: the token read from the link, the link checked before a password is asked for
 * (docs/decisions/0125-invitation-link-checked-first.md), and the new password typed twice and
 * judged by the service's own rule before it is sent.
 */

/** The token travels in the link's fragment, which browsers never send to a server or a referrer. */
export function tokenFromLink(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/**
 * The link's state as its check answers it: 'checking' until then, and 'unknown' when there is no
 * token or the check could not be made (too many checks from this address, the connection
 * dropped), in which case the form is shown and setting the password checks the link again.
 */
export function useLinkCheck<State>(
  token: string,
  check: (token: string) => Promise<State>,
): State | 'checking' | 'unknown' {
  const [state, setState] = useState<State | 'checking' | 'unknown'>(
    token === '' ? 'unknown' : 'checking',
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the check is made once for the link's token; a page passes a new function at every render.
  useEffect(() => {
    if (token === '') return;
    let current = true;
    check(token).then(
      (answer) => {
        if (current) setState(answer);
      },
      () => {
        if (current) setState('unknown');
      },
    );
    return () => {
      current = false;
    };
  }, [token]);
  return state;
}

/** What a page does with the password once both fields agree and the rule passes. */
type SendPassword = (password: string) => Promise<void>;

/**
 * The new password, typed twice, as a form. Before it is sent, the rule the service applies
 * (src/contracts/passwords.ts) is checked here, and the two fields must match; should the rule's
 * dictionaries fail to load, the service still checks. The service's own refusal of the password
 * (a breached password, which only its list holds) is shown under the field until it is changed;
 * any other failure is the page's to word (`otherFailure`).
 */
export function useNewPassword(send: SendPassword, otherFailure: (error: unknown) => string) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const typedProblem = usePasswordProblem(password);
  const [refusal, setRefusal] = useState<{ password: string; message: string } | null>(null);
  const fieldProblem =
    refusal?.password === password ? refusal.message : password.length > 0 ? typedProblem : null;
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
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
      await send(password);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        setProblem('Too many attempts. Please wait a few minutes and try again.');
      } else if (error instanceof ApiError && error.issues.length > 0) {
        setRefusal({ password, message: error.issues.map((issue) => issue.message).join('; ') });
      } else {
        setProblem(otherFailure(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return {
    password,
    setPassword,
    confirmation,
    setConfirmation,
    problem,
    fieldProblem,
    busy,
    submit,
  };
}

/** The form of a new password: a sentence above it, the two fields and the page's button. */
export function NewPasswordForm({
  form,
  intro,
  label,
  submitLabel,
}: {
  form: ReturnType<typeof useNewPassword>;
  intro?: ReactNode;
  /** The first field's label; the second is the same, "again". */
  label: string;
  submitLabel: string;
}) {
  return (
    <form onSubmit={form.submit} noValidate>
      <Stack gap="sm">
        {intro}
        {form.problem && (
          <Alert color="red" role="alert">
            {form.problem}
          </Alert>
        )}
        <PasswordInput
          label={label}
          description={PASSWORD_RULE_TEXT}
          error={form.fieldProblem}
          autoComplete="new-password"
          required
          value={form.password}
          onChange={(event) => form.setPassword(event.currentTarget.value)}
        />
        <PasswordInput
          label={`${label} again`}
          autoComplete="new-password"
          required
          value={form.confirmation}
          onChange={(event) => form.setConfirmation(event.currentTarget.value)}
        />
        <Button type="submit" loading={form.busy}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
