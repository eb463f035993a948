import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { DOCUMENT_TYPE_LABELS } from '../../../contracts/documents';
import { fileSizeInWords } from '../../../contracts/file-size';
import { counted } from '../../../contracts/plain-english';
import { api } from '../../api/client';
import type { Scheme, SchemeDocument } from '../../api/types';
import { can, canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DateTime } from '../../components/DateTime';
import { notifySuccess } from '../../components/notify';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { DocumentUploader } from './DocumentUploader';
import { DownloadButton } from './DownloadButton';
import { useRefreshDocuments, useSchemeDocuments } from './documentQueries';
import { type DocumentGroup, documentName, groupVersions } from './documents-helpers';
import { ScanStatusBadge } from './ScanStatusBadge';

/**
 * A scheme's documents (docs/decisions/0062-document-vault.md): an upload form for those who may upload, then every document
 * with its versions together, the newest first and the earlier ones a click away, each with its
 * scan status in words, a download and (for writers) a delete.
 */
export function DocumentsPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const documents = useSchemeDocuments(scheme.id);
  const refresh = useRefreshDocuments(scheme.id);
  const [deleting, setDeleting] = useState<SchemeDocument | null>(null);
  const canUpload = can(session, 'document.upload', scheme);
  const canDelete = canChange(session, 'document.delete', scheme);
  return (
    <Stack gap="xl">
      {canUpload && (
        <Stack gap="sm" component="section" aria-labelledby="documents-upload">
          <Title order={3} id="documents-upload">
            Upload a document
          </Title>
          <Text size="sm">
            Uploading a file with the same name and type as one already here adds a new version;
            earlier versions stay readable.
          </Text>
          <DocumentUploader schemeId={scheme.id} onUploaded={() => refresh()} />
        </Stack>
      )}
      <Stack gap="sm" component="section" aria-labelledby="documents-list">
        <Title order={3} id="documents-list">
          Documents
        </Title>
        <QueryPanel query={documents} loading="Loading the documents">
          {(data) => (
            <DocumentsTable
              groups={groupVersions(data.items)}
              onDelete={canDelete ? setDeleting : undefined}
            />
          )}
        </QueryPanel>
      </Stack>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete document version"
        confirmLabel="Delete"
        onConfirm={async () => {
          if (!deleting) return;
          await api(apiRoutes.documents.remove, { params: { id: deleting.id } });
          notifySuccess(`Version ${deleting.version} of ${documentName(deleting)} deleted.`);
          await refresh();
        }}
      >
        <Text>
          Delete version {deleting?.version} of {deleting ? documentName(deleting) : ''}? Its other
          versions stay. A governance entry linked to it will show the document as removed.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

/** The documents, a row per name with its newest version; earlier versions shown on request. */
export function DocumentsTable({
  groups,
  onDelete,
  caption = 'Documents, newest first, with their versions',
}: {
  groups: DocumentGroup[];
  onDelete?: (document: SchemeDocument) => void;
  caption?: string;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (groups.length === 0) return <Text>No document has been uploaded.</Text>;
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const row = (document: SchemeDocument, earlier: boolean) => (
    <Table.Tr key={document.id}>
      <Table.Td pl={earlier ? 'xl' : undefined}>
        <Stack gap={0}>
          <Text size="sm" fw={earlier ? 400 : 500}>
            {earlier ? `Earlier version ${document.version}` : documentName(document)}
          </Text>
          {!earlier && document.title && (
            <Text size="xs" c="dimmed">
              {document.filename}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>{DOCUMENT_TYPE_LABELS[document.documentType]}</Table.Td>
      <Table.Td>{document.version}</Table.Td>
      <Table.Td>
        <DateTime value={document.createdAt} />
      </Table.Td>
      <Table.Td>{fileSizeInWords(document.size)}</Table.Td>
      <Table.Td>{document.memberFacing ? 'Yes' : 'No'}</Table.Td>
      <Table.Td>
        <ScanStatusBadge status={document.scanStatus} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <DownloadButton document={document} />
          {onDelete && (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={() => onDelete(document)}
              aria-label={`Delete version ${document.version} of ${documentName(document)}`}
            >
              Delete
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
  return (
    <ScrollTable minWidth={860} label="Documents">
      <Table>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Document</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th>Uploaded</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Members see it</Table.Th>
            <Table.Th>Scan</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((group) => {
            const [latest, ...earlier] = group.versions as [SchemeDocument, ...SchemeDocument[]];
            const shown = open.has(group.key);
            return (
              <Fragment key={group.key}>
                {row(latest, false)}
                {earlier.length > 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={8} pl="xl">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-expanded={shown}
                        onClick={() => toggle(group.key)}
                      >
                        {shown ? 'Hide' : 'Show'} {counted(earlier.length, 'earlier version')} of{' '}
                        {documentName(latest)}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                )}
                {shown && earlier.map((document) => row(document, true))}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
