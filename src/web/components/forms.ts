import type { UseFormReturnType } from '@mantine/form';
import { ApiError, describeError } from '../api/client';

/**
 * Shows an API failure on a form: each validation issue under its field (the same messages the
 * API gives), anything else as the form's own error. Returns the message for the form as a whole.
 */
export function showApiErrors<T>(form: UseFormReturnType<T>, error: unknown): string | null {
  if (error instanceof ApiError && error.issues.length > 0) {
    const general: string[] = [];
    for (const issue of error.issues) {
      if (issue.path === '' || issue.path === undefined) general.push(issue.message);
      else form.setFieldError(issue.path, issue.message);
    }
    return general.length > 0 ? general.join('; ') : 'Please correct the highlighted fields.';
  }
  return describeError(error);
}
