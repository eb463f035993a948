import { Alert } from '@mantine/core';
import { ApiError, describeError } from '../api/client';
import { NotFoundPage } from '../pages/common/NotFoundPage';

/**
 * A failed load of the record a page is about. The API answers 404 alike for a missing record
 * and for one in another tenant or employer, and 400 for an id no record could have (typed into
 * the address bar); the page shows the "Not found" content for both, nothing more.
 */
export function LoadError({ error }: { error: unknown }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFoundPage />;
  }
  return (
    <Alert color="red" role="alert" title="Could not load this page">
      {describeError(error)}
    </Alert>
  );
}
