import {
  Alert,
  Button,
  FileButton,
  Group,
  NativeSelect,
  Paper,
  Progress,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type DragEvent, useState } from 'react';
import {
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
  type DocumentType,
  documentUploadFields,
  fileSizeProblem,
  MAX_DOCUMENT_BYTES,
  MEMBER_DOCUMENT_RULE,
} from '../../../contracts/documents';
import { fileSizeInWords } from '../../../contracts/file-size';
import { ApiError } from '../../api/client';
import type { SchemeDocument } from '../../api/types';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { uploadDocument } from './documentQueries';
import { type UploadValues, uploadFields } from './documents-helpers';
import { ScanStatusBadge } from './ScanStatusBadge';
import { SchemeMemberSelect } from './SchemeMemberSelect';

/** What the file input offers; the API judges the bytes, whatever the name says. */
export const DOCUMENT_FILE_ACCEPT =
  '.pdf,.docx,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

/**
 * Uploads a document to a scheme: a file dropped on the area or chosen with its button (a real
 * button, so the keyboard reaches it), the type, whether members see it, a title, and a progress
 * bar fed by the upload's own progress events. With `documentType` the type is fixed (a governance
 * entry's document) and members never see it.
 */
export function DocumentUploader({
  schemeId,
  documentType,
  label = 'Upload a document',
  onUploaded,
}: {
  schemeId: string;
  documentType?: DocumentType;
  label?: string;
  onUploaded: (document: SchemeDocument) => Promise<unknown> | undefined;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<SchemeDocument | null>(null);
  const [dragging, setDragging] = useState(false);
  const form = useForm<UploadValues>({
    initialValues: {
      documentType: documentType ?? '',
      memberFacing: false,
      title: '',
      memberId: '',
    },
    validate: validateWith(documentUploadFields, uploadFields),
  });

  // Whether the chosen type is about one member, who alone of the members then sees it.
  const chosenType = form.values.documentType;
  const memberRule = chosenType === '' ? 'refused' : MEMBER_DOCUMENT_RULE[chosenType];

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setDone(null);
    setProgress(null);
    setFileProblem(chosen ? fileSizeProblem(chosen.size) : null);
  };

  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    if (!file) {
      setFileProblem('Choose a file to upload');
      return;
    }
    const tooBig = fileSizeProblem(file.size);
    if (tooBig) {
      setFileProblem(tooBig);
      return;
    }
    setDone(null);
    setProgress(0);
    try {
      const uploaded = await uploadDocument(
        schemeId,
        {
          file,
          documentType: values.documentType as DocumentType,
          memberFacing: values.memberFacing,
          title: uploadFields(values).title,
          memberId: uploadFields(values).memberId,
        },
        setProgress,
      );
      setProgress(1);
      setDone(uploaded);
      setFile(null);
      form.setFieldValue('title', '');
      await onUploaded(uploaded);
    } catch (error) {
      setProgress(null);
      if (error instanceof ApiError && error.status === 413) {
        setFileProblem(
          `The file is too large: a document may be at most ${fileSizeInWords(MAX_DOCUMENT_BYTES)}`,
        );
        return;
      }
      // A refused type or an empty file: the API's words name what is accepted.
      const fileIssue = error instanceof ApiError && error.issues.find((i) => i.path === 'file');
      if (fileIssue) {
        setFileProblem(fileIssue.message);
        return;
      }
      throw error;
    }
  });

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) choose(dropped);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Paper
          withBorder
          p="md"
          radius="md"
          style={{ borderStyle: 'dashed', borderWidth: 2 }}
          bg={dragging ? 'blue.0' : undefined}
          onDragOver={(event: DragEvent<HTMLDivElement>) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="document-drop-zone"
        >
          <Group gap="sm" justify="center">
            <Text size="sm">Drag a file here, or</Text>
            <FileButton onChange={choose} accept={DOCUMENT_FILE_ACCEPT} disabled={busy}>
              {(props) => (
                <Button {...props} variant="default" size="compact-md">
                  Choose a file
                </Button>
              )}
            </FileButton>
          </Group>
          <Text size="sm" c="dimmed" ta="center" mt={4}>
            PDF, Word (DOCX), PNG or JPEG, at most {fileSizeInWords(MAX_DOCUMENT_BYTES)}.
          </Text>
          {file && (
            <Text size="sm" ta="center" mt={4} fw={500}>
              Chosen: {file.name} ({fileSizeInWords(file.size)})
            </Text>
          )}
        </Paper>
        {fileProblem && (
          <Alert color="red" role="alert" title="This file cannot be uploaded">
            {fileProblem}
          </Alert>
        )}
        {documentType ? (
          <Text size="sm">Uploaded as: {DOCUMENT_TYPE_LABELS[documentType]}</Text>
        ) : (
          <NativeSelect
            label="Document type"
            required
            data={[
              { value: '', label: 'Choose a type' },
              ...DOCUMENT_TYPES.map((type) => ({ value: type, label: DOCUMENT_TYPE_LABELS[type] })),
            ]}
            {...form.getInputProps('documentType')}
          />
        )}
        <TextInput
          label="Title"
          description="Optional: how the document is named in lists"
          {...form.getInputProps('title')}
        />
        {memberRule !== 'refused' && (
          <SchemeMemberSelect
            schemeId={schemeId}
            required={memberRule === 'required'}
            {...form.getInputProps('memberId')}
          />
        )}
        {!documentType && memberRule !== 'required' && form.values.memberId === '' && (
          <Switch
            label="Members can see and download it"
            {...form.getInputProps('memberFacing', { type: 'checkbox' })}
          />
        )}
        {progress !== null && (
          <Stack gap={4}>
            <Progress
              value={Math.round(progress * 100)}
              aria-label="Upload progress"
              animated={progress < 1}
            />
            <Text size="sm" role="status">
              {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Upload complete'}
            </Text>
          </Stack>
        )}
        {done && (
          <Group gap="xs" role="status" aria-label="Uploaded document">
            <Text size="sm">
              Uploaded {done.filename}, version {done.version}:
            </Text>
            <ScanStatusBadge status={done.scanStatus} />
          </Group>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={file === null || fileProblem !== null}>
            Upload
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
