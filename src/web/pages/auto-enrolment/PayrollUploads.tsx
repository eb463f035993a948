import { Badge, Stack, Text, Title } from '@mantine/core';
import { apiRoutes } from '../../../contracts/api-routes';
import type { PayrollUploadSummary } from '../../../contracts/auto-enrolment';
import { ROLE_NAMES } from '../../../contracts/roles';
import { type Column, CursorTable } from '../../components/CursorTable';
import { formatDateTime } from '../../format';
import { periodsCovered } from './ae-helpers';
import { AE_KEY } from './aeQueries';
import { DeleteUploadButton } from './DeleteUploadButton';

const counter = new Intl.NumberFormat('en-IE');

const STATUS_TEXT: Record<PayrollUploadSummary['status'], { label: string; color: string }> = {
  running: { label: 'Running', color: 'blue' },
  succeeded: { label: 'Stored', color: 'green' },
  rejected: { label: 'Refused', color: 'red' },
  failed: { label: 'Failed', color: 'gray' },
};

/**
 * The employer's payroll uploads, newest first (docs/api.md, "Auto-enrolment readiness"): when, by
 * whom (the uploader's name, and role in words, so a colleague who asks is found), what each
 * covers, and for a finished one, when the role may, its deletion after a confirmation. A running
 * upload cannot be deleted: the service answers it as not found until it ends.
 */
export function PayrollUploads({
  employerId,
  canDelete,
}: {
  employerId: string;
  canDelete: boolean;
}) {
  const columns: Column<PayrollUploadSummary>[] = [
    {
      key: 'createdAt',
      header: 'Uploaded',
      render: (upload) => formatDateTime(upload.createdAt),
      sortValue: (upload) => upload.createdAt,
    },
    { key: 'file', header: 'File', render: (upload) => upload.fileName ?? 'No name given' },
    {
      key: 'by',
      header: 'By',
      render: ({ uploadedBy }) =>
        uploadedBy.role === null
          ? 'A former user'
          : `${uploadedBy.name ?? 'Unnamed account'} (${ROLE_NAMES[uploadedBy.role]})`,
    },
    {
      key: 'status',
      header: 'Status',
      render: (upload) => (
        <Badge color={STATUS_TEXT[upload.status].color} variant="light">
          {STATUS_TEXT[upload.status].label}
        </Badge>
      ),
    },
    {
      key: 'rows',
      header: 'Rows',
      render: (upload) => counter.format(upload.rowsRead),
      sortValue: (upload) => upload.rowsRead,
    },
    {
      key: 'employees',
      header: 'Employees',
      render: (upload) => counter.format(upload.employees),
      sortValue: (upload) => upload.employees,
    },
    { key: 'periods', header: 'Pay periods', render: periodsCovered },
  ];
  if (canDelete) {
    columns.push({
      key: 'delete',
      header: 'Delete',
      render: (upload) =>
        upload.status === 'running' ? (
          <Text size="sm" c="dimmed">
            Still running
          </Text>
        ) : (
          <DeleteUploadButton employerId={employerId} upload={upload} inTable />
        ),
    });
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby="ae-uploads">
      <Title order={3} id="ae-uploads">
        Payroll uploads
      </Title>
      <CursorTable
        queryKey={[...AE_KEY, employerId, 'uploads']}
        route={apiRoutes.autoEnrolment.payrollUploads}
        params={{ id: employerId }}
        query={{ limit: 20 }}
        columns={columns}
        caption="Payroll uploads"
        empty="No payroll file has been uploaded for this employer yet."
      />
    </Stack>
  );
}
