import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { showApiErrors } from './forms';

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
