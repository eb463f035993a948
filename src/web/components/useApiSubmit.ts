import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { describeError } from '../api/client';
import { showApiErrors } from './forms';
import { notifyProblem } from './notify';

/**
 * The submit handler of a form that sends its values to the API: while the request runs `busy`
 * is set, and a refusal puts the API's messages under the fields it names and the rest in
 * `problem`, for the form to show above its fields.
 */
export function useApiSubmit<T>(
  form: UseFormReturnType<T>,
  send: (values: T) => Promise<void>,
): { submit: ReturnType<UseFormReturnType<T>['onSubmit']>; busy: boolean; problem: string | null } {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setProblem(null);
    try {
      await send(values);
    } catch (error) {
      setProblem(showApiErrors(form, error));
    } finally {
      setBusy(false);
    }
  });
  return { submit, busy, problem };
}

/**
 * A one-click action outside any form (a resend button): `busy` while it runs, and a refusal
 * told in a notification.
 */
export function useApiAction(act: () => Promise<void>): { run: () => void; busy: boolean } {
  const [busy, setBusy] = useState(false);
  const run = () => {
    setBusy(true);
    act()
      .catch((error: unknown) => notifyProblem(describeError(error)))
      .finally(() => setBusy(false));
  };
  return { run, busy };
}
