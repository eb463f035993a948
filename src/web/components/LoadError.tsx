import { Alert } from '@mantine/core';
import { ApiError, describeError } from '../api/client';
import { NotFoundPage } from '../pages/common/NotFoundPage';
import { NotAvailable } from './AccessGate';

/**
 * A failed load of the record a page is about. The API answers 404 alike for a missing record
 * and for one in another tenant or employer, and 400 for an id no record could have (typed into
 * the address bar); the page shows the "Not found" content for both, nothing more. A 403 (a role
 * that does not work on such records, at an address typed or followed) reads as the pages' own
 * gate does, with the way back to the start page.
 */
export function LoadError({ error }: { error: unknown }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFoundPage />;
  }
  if (error instanceof ApiError && error.status === 403) return <NotAvailable />;
  return (
    <Alert color="red" role="alert" title="Could not load this page">
      {describeError(error)}
    </Alert>
  );
}
