import { Alert, Badge, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { savedInWords } from '../../../contracts/imports';
import { counted } from '../../../contracts/plain-english';
import { api, describeError } from '../../api/client';
import type { ImportStatus, ImportSummary, Scheme } from '../../api/types';
import { canChange, scopeIn } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { Loading } from '../../components/Loading';
import { formatDateTime } from '../../format';
import { ImportIssuesTable } from '../imports/ImportIssuesTable';

export const schemeImportsKey = (schemeId: string) => ['schemes', schemeId, 'imports'] as const;

const STATUS: Record<ImportStatus, { label: string; color: string }> = {
  running: { label: 'Running', color: 'blue' },
  succeeded: { label: 'Imported', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
  failed: { label: 'Failed', color: 'orange' },
};

export function ImportStatusBadge({ status }: { status: ImportStatus }) {
  return (
    <Badge color={STATUS[status].color} variant="dot">
      {STATUS[status].label}
    </Badge>
  );
}

const number = (value: number) => value.toLocaleString('en-IE');

/**
 * Who uploaded a file. Imports name their uploader by account id; the name is looked up by those
 * who may read their own firm's accounts (the platform's reads of a firm's accounts are audited in
 * its log, which a page view should not fill), and everyone else sees "You" or "Another user".
 */
function Uploader({ userId }: { userId: string }) {
  const session = useSignedIn();
  const { user } = session;
  const account = useQuery({
    queryKey: ['users', userId],
    queryFn: () => api(apiRoutes.users.get, { params: { id: userId } }),
    enabled: scopeIn(session, 'user.read') === 'tenant' && userId !== user.id,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (userId === user.id) return 'You';
  return account.data?.name ?? 'Another user';
}

/** A scheme's CSV imports, newest first, and the problems of each rejected one. */
export function SchemeImportsPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const [viewing, setViewing] = useState<ImportSummary | null>(null);

  const columns: Column<ImportSummary>[] = [
    {
      key: 'createdAt',
      header: 'Started',
      render: (row) => formatDateTime(row.createdAt),
      sortValue: (row) => row.createdAt,
    },
    {
      key: 'kind',
      header: 'File of',
      render: (row) => (row.kind === 'members' ? 'Members' : 'Contributions'),
      sortValue: (row) => row.kind,
    },
    {
      key: 'status',
      header: 'Status',
      render: (row) => <ImportStatusBadge status={row.status} />,
      sortValue: (row) => row.status,
    },
    {
      key: 'rowsRead',
      header: 'Rows read',
      render: (row) => number(row.rowsRead),
      sortValue: (row) => row.rowsRead,
    },
    {
      key: 'rowsWritten',
      header: 'Saved',
      render: (row) => savedInWords(row.kind, row.rowsWritten),
      sortValue: (row) => row.rowsWritten,
    },
    {
      key: 'issueCount',
      header: 'Problems',
      render: (row) =>
        row.issueCount > 0 ? (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => setViewing(row)}
            aria-label={`Show the ${counted(row.issueCount, 'problem')} of the import started ${formatDateTime(row.createdAt)}`}
          >
            {number(row.issueCount)}
          </Button>
        ) : (
          '0'
        ),
      sortValue: (row) => row.issueCount,
    },
    { key: 'createdBy', header: 'By', render: (row) => <Uploader userId={row.createdBy} /> },
    {
      key: 'finishedAt',
      header: 'Finished',
      render: (row) => (row.finishedAt ? formatDateTime(row.finishedAt) : '—'),
      sortValue: (row) => row.finishedAt ?? '',
    },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>Imports</Title>
        {(canChange(session, 'member.import', scheme) ||
          canChange(session, 'contribution.import', scheme)) && (
          <Button component={Link} to={`/schemes/${scheme.id}/import`}>
            Import a CSV file
          </Button>
        )}
      </Group>
      <CursorTable
        queryKey={schemeImportsKey(scheme.id)}
        route={apiRoutes.imports.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 20 }}
        columns={columns}
        caption={`CSV imports into ${scheme.name}, newest first`}
        empty="No files have been imported into this scheme."
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={viewing !== null}
        onClose={() => setViewing(null)}
        title="Problems in the file"
        size="xl"
      >
        {viewing && <ImportProblems importId={viewing.id} />}
      </Modal>
    </Stack>
  );
}

function ImportProblems({ importId }: { importId: string }) {
  const detail = useQuery({
    queryKey: ['imports', importId],
    queryFn: () => api(apiRoutes.imports.get, { params: { id: importId } }),
  });
  if (detail.isPending) return <Loading label="Loading the problems" />;
  if (detail.isError) return <Alert color="red">{describeError(detail.error)}</Alert>;
  const issues = detail.data.issues ?? [];
  const aboutRows = issues.some((issue) => issue.line !== null);
  return (
    <Stack gap="sm">
      <Text>
        Nothing from this file was written.
        {aboutRows && ' Correct these rows and import the file again.'}
      </Text>
      <ImportIssuesTable issues={issues} issueCount={detail.data.issueCount} />
    </Stack>
  );
}
