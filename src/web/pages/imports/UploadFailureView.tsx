import { Alert, Stack } from '@mantine/core';
import type { UploadFailure } from './csvUpload';
import { ImportIssuesTable } from './ImportIssuesTable';

/** A refused upload: nothing was written, and either every bad row by line or the one reason. */
export function UploadFailureView({ failure }: { failure: UploadFailure }) {
  if (failure.kind === 'rejected') {
    return (
      <Stack gap="sm">
        <Alert color="red" title="The file was not imported" role="alert">
          Nothing was written. Correct the rows below and import the file again.
        </Alert>
        <ImportIssuesTable issues={failure.issues} issueCount={failure.issueCount} />
      </Stack>
    );
  }
  return (
    <Alert color="red" title={failure.title} role="alert">
      {failure.message}
    </Alert>
  );
}
