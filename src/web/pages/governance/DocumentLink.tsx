import {
  Button,
  Divider,
  FileButton,
  Group,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useState } from 'react';
import type { apiRoutes } from '../../../contracts/api-routes';
import {
  DOCUMENT_TYPE_LABELS,
  fileSizeProblem,
  MAX_DOCUMENT_BYTES,
} from '../../../contracts/documents';
import { fileSizeInWords } from '../../../contracts/file-size';
import {
  type DocumentLinkView,
  LINKED_DOCUMENT_TYPE,
  type LinkingRegister,
} from '../../../contracts/governance';
import { ApiError, api, describeError } from '../../api/client';
import type { Scheme, SchemeDocument } from '../../api/types';
import { notifyProblem, notifySuccess } from '../../components/notify';
import { DOCUMENT_FILE_ACCEPT, DocumentUploader } from '../documents/DocumentUploader';
import { DownloadButton } from '../documents/DownloadButton';
import {
  uploadDocument,
  useRefreshDocuments,
  useSchemeDocuments,
} from '../documents/documentQueries';
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

/** What the pages offer to link to an entry of `register`: its scheme's documents of its type. */
function useLinkable(schemeId: string, register: LinkingRegister) {
  const documents = useSchemeDocuments(schemeId);
  const type = LINKED_DOCUMENT_TYPE[register];
  return (documents.data?.items ?? []).filter(
    (document) => document.documentType === type && document.scanStatus !== 'quarantined',
  );
}

const documentChoice = (document: SchemeDocument) => ({
  value: document.id,
  label: `${documentName(document)}, version ${document.version}`,
});

/** A file chosen in an entry's form, to be uploaded as its document when the form is sent. */
export interface PendingDocument {
  file: File | null;
  problem: string | null;
}

/**
 * The document of an entry still being made, in its own form: one of the scheme's documents of
 * the register's type, or a file chosen here, uploaded as that type when the form is sent
 * (`sendPendingDocument`) and then linked with the entry. Either may be left for later: the
 * entry's row offers the same afterwards.
 */
export function DocumentChoiceField({
  scheme,
  register,
  label,
  choice,
  pending,
  onPending,
}: {
  scheme: Scheme;
  register: LinkingRegister;
  label: string;
  choice: GetInputPropsReturnType;
  pending: PendingDocument;
  onPending: (pending: PendingDocument) => void;
}) {
  const candidates = useLinkable(scheme.id, register);
  const type = LINKED_DOCUMENT_TYPE[register];
  return (
    <Stack gap={6}>
      <NativeSelect
        label={label}
        description={
          pending.file
            ? 'The file chosen below is uploaded and linked instead'
            : `One of this scheme’s “${DOCUMENT_TYPE_LABELS[type]}” documents, or a file to upload`
        }
        disabled={pending.file !== null}
        data={[
          { value: '', label: 'None yet: attach it later' },
          ...candidates.map(documentChoice),
        ]}
        {...choice}
      />
      <Group gap="sm">
        <FileButton
          onChange={(file) =>
            onPending({ file, problem: file ? fileSizeProblem(file.size) : null })
          }
          accept={DOCUMENT_FILE_ACCEPT}
        >
          {(props) => (
            <Button {...props} variant="default" size="compact-sm">
              Choose a file
            </Button>
          )}
        </FileButton>
        {pending.file ? (
          <>
            <Text size="sm">
              Chosen: {pending.file.name} ({fileSizeInWords(pending.file.size)})
            </Text>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => onPending({ file: null, problem: null })}
            >
              Remove the chosen file
            </Button>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            PDF, Word (DOCX), PNG or JPEG, at most {fileSizeInWords(MAX_DOCUMENT_BYTES)}.
          </Text>
        )}
      </Group>
      {pending.problem && (
        <Text size="sm" c="red" role="alert">
          {pending.problem}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Uploads the file chosen in an entry's form as the register's type of document, kept from
 * members, and answers its id; null when no file is chosen. A file the service refuses (its type,
 * its size) is told in `pending.problem` and answered as `'refused'`, for the form to stop there.
 */
export async function sendPendingDocument(
  scheme: Scheme,
  register: LinkingRegister,
  pending: PendingDocument,
  onPending: (pending: PendingDocument) => void,
): Promise<string | null | 'refused'> {
  if (!pending.file) return null;
  const tooBig = fileSizeProblem(pending.file.size);
  if (tooBig) {
    onPending({ ...pending, problem: tooBig });
    return 'refused';
  }
  try {
    const uploaded = await uploadDocument(
      scheme.id,
      { file: pending.file, documentType: LINKED_DOCUMENT_TYPE[register], memberFacing: false },
      () => {},
    );
    onPending({ file: null, problem: null });
    return uploaded.id;
  } catch (error) {
    const fileIssue = error instanceof ApiError && error.issues.find((i) => i.path === 'file');
    if (error instanceof ApiError && error.status === 413) {
      onPending({
        ...pending,
        problem: `The file is too large: a document may be at most ${fileSizeInWords(MAX_DOCUMENT_BYTES)}`,
      });
      return 'refused';
    }
    if (fileIssue) {
      onPending({ ...pending, problem: fileIssue.message });
      return 'refused';
    }
    throw error;
  }
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
  const type = LINKED_DOCUMENT_TYPE[target.register];
  const candidates = useLinkable(scheme.id, target.register);
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
            data={[{ value: '', label: 'Choose a document' }, ...candidates.map(documentChoice)]}
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
