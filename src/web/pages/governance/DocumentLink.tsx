import { Button, Divider, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { apiRoutes } from '../../../contracts/api-routes';
import { DOCUMENT_TYPE_LABELS } from '../../../contracts/documents';
import {
  type DocumentLinkView,
  LINKED_DOCUMENT_TYPE,
  type LinkingRegister,
} from '../../../contracts/governance';
import { api, describeError } from '../../api/client';
import type { Scheme } from '../../api/types';
import { notifyProblem, notifySuccess } from '../../components/notify';
import { DocumentUploader } from '../documents/DocumentUploader';
import { DownloadButton } from '../documents/DownloadButton';
import { useRefreshDocuments, useSchemeDocuments } from '../documents/documentQueries';
import { documentName } from '../documents/documents-helpers';
import { ScanStatusBadge } from '../documents/ScanStatusBadge';
import { FormModal } from './GovernanceForm';
import { type Register, useRefreshGovernance } from './governanceQueries';

/** Where an entry's link is changed, and which register's list shows it. */
export interface LinkTarget {
  register: LinkingRegister;
  /** The entry's change route and its id: a link is a change of the entry. */
  route:
    | typeof apiRoutes.policies.update
    | typeof apiRoutes.trustees.update
    | typeof apiRoutes.keyFunctionHolders.update
    | typeof apiRoutes.oraReports.update;
  id: string;
  list: Register;
  /** The entry in words, for the dialog's title and the buttons' names. */
  name: string;
}

/**
 * A governance entry's document in a register's table (docs/decisions/0064-document-links-and-documents-tab.md):
 * its name and a download, "Document removed" when it was deleted since, and for those who
 * may change the entry a button to upload one in place or link one already uploaded.
 */
export function DocumentLinkCell({
  scheme,
  entry,
  target,
  canChange,
}: {
  scheme: Scheme;
  entry: DocumentLinkView;
  target: LinkTarget;
  canChange: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={4} align="flex-start">
      {entry.document ? (
        <>
          <Text size="sm">
            {documentName(entry.document)} (v{entry.document.version})
          </Text>
          <Group gap="xs">
            {entry.document.scanStatus !== 'clean' && (
              <ScanStatusBadge status={entry.document.scanStatus} />
            )}
            <DownloadButton document={entry.document} />
          </Group>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {entry.documentRemoved ? 'Document removed' : 'No document'}
        </Text>
      )}
      {canChange && (
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => setOpen(true)}
          aria-label={`${entry.document ? 'Change' : 'Attach'} the document of ${target.name}`}
        >
          {entry.document ? 'Change document' : 'Attach document'}
        </Button>
      )}
      <FormModal
        opened={open}
        title={`The document of ${target.name}`}
        onClose={() => setOpen(false)}
      >
        <LinkDialog scheme={scheme} entry={entry} target={target} onClose={() => setOpen(false)} />
      </FormModal>
    </Stack>
  );
}

function LinkDialog({
  scheme,
  entry,
  target,
  onClose,
}: {
  scheme: Scheme;
  entry: DocumentLinkView;
  target: LinkTarget;
  onClose: () => void;
}) {
  const refreshGovernance = useRefreshGovernance(scheme.id);
  const refreshDocuments = useRefreshDocuments(scheme.id);
  const documents = useSchemeDocuments(scheme.id);
  const type = LINKED_DOCUMENT_TYPE[target.register];
  const candidates = (documents.data?.items ?? []).filter(
    (document) => document.documentType === type && document.scanStatus !== 'quarantined',
  );
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);

  const link = async (documentId: string | null) => {
    setBusy(true);
    try {
      await api(target.route, { params: { id: target.id }, body: { documentId } });
      notifySuccess(
        documentId
          ? `Document linked to ${target.name}.`
          : `Document unlinked from ${target.name}.`,
      );
      await refreshGovernance(target.list);
      onClose();
    } catch (error) {
      notifyProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <Title order={4}>Upload it</Title>
      <DocumentUploader
        schemeId={scheme.id}
        documentType={type}
        label={`Upload the document of ${target.name}`}
        onUploaded={async (uploaded) => {
          await refreshDocuments();
          await link(uploaded.id);
        }}
      />
      <Divider label="or" />
      <Title order={4}>Link one already uploaded</Title>
      {candidates.length === 0 ? (
        <Text size="sm">
          No “{DOCUMENT_TYPE_LABELS[type]}” document of this scheme is uploaded yet.
        </Text>
      ) : (
        <Group align="flex-end">
          <NativeSelect
            label={`${DOCUMENT_TYPE_LABELS[type]} document`}
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={[
              { value: '', label: 'Choose a document' },
              ...candidates.map((document) => ({
                value: document.id,
                label: `${documentName(document)}, version ${document.version}`,
              })),
            ]}
          />
          <Button disabled={chosen === ''} loading={busy} onClick={() => link(chosen)}>
            Link
          </Button>
        </Group>
      )}
      {(entry.documentId !== null || entry.documentRemoved) && (
        <>
          <Divider />
          <Group justify="space-between">
            <Text size="sm">Remove the link (the document itself stays).</Text>
            <Button variant="light" color="red" loading={busy} onClick={() => link(null)}>
              Unlink
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
