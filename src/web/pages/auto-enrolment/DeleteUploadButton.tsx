import { Button, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import type { PayrollUploadView } from '../../../contracts/auto-enrolment';
import { counted } from '../../../contracts/plain-english';
import { api } from '../../api/client';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../components/notify';
import { AE_KEY } from './aeQueries';

/**
 * Deletes a stored payroll upload after asking: its pay lines go, and so does every employee no
 * other upload names (docs/decisions/0068-auto-enrolment-readiness.md), so the dialog says so
 * before anything is removed.
 */
export function DeleteUploadButton({
  employerId,
  upload,
  onDeleted,
  inTable = false,
}: {
  employerId: string;
  upload: Pick<PayrollUploadView, 'id' | 'fileName' | 'rowsWritten'>;
  onDeleted?: () => void;
  /** A row's button in the uploads table: short, named for its file to a screen reader. */
  inTable?: boolean;
}) {
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const name = upload.fileName ?? 'a file without a name';
  return (
    <>
      <Button
        color="red"
        variant="light"
        size={inTable ? 'xs' : 'sm'}
        aria-label={inTable ? `Delete the upload of ${name}` : undefined}
        onClick={() => setAsking(true)}
      >
        {inTable ? 'Delete' : 'Delete this upload'}
      </Button>
      <ConfirmModal
        opened={asking}
        onClose={() => setAsking(false)}
        title="Delete the payroll upload"
        confirmLabel="Delete the upload"
        onConfirm={async () => {
          await api(apiRoutes.autoEnrolment.removePayrollUpload, {
            params: { id: employerId, importId: upload.id },
          });
          notifySuccess('Payroll upload deleted.');
          await client.invalidateQueries({ queryKey: [...AE_KEY, employerId] });
          onDeleted?.();
        }}
      >
        <Text>
          Delete the upload of “{name}” and its {counted(upload.rowsWritten, 'pay line')}? With them
          goes every employee no other upload names, and the assessment no longer counts them.
        </Text>
      </ConfirmModal>
    </>
  );
}
