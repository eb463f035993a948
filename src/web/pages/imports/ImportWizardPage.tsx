import {
  Alert,
  Anchor,
  Button,
  DataList,
  FileInput,
  Group,
  Radio,
  Stack,
  Stepper,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { importSummary, importView, pageOf } from '../../api/answers';
import { ApiError, api, describeError, upload } from '../../api/client';
import type { ImportDetail, ImportIssue, ImportKind, ImportSummary, PaidIn } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { Loading } from '../../components/Loading';
import { formatCents } from '../../format';
import { NotFoundPage } from '../common/NotFoundPage';
import { isNotFound, useScheme } from '../schemes/SchemeQueries';
import { type CsvPreview, previewCsv } from './csvPreview';
import { ExpectedColumns } from './ExpectedColumns';
import { ImportIssuesTable } from './ImportIssuesTable';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportProgress } from './ImportProgress';
import { IMPORT_FORMATS, MAX_IMPORT_BYTES } from './importFormats';
import { useImportProgress } from './useImportProgress';

/** How an upload ended, as the wizard's last step shows it. */
type Outcome =
  | { kind: 'imported'; result: ImportDetail }
  | { kind: 'rejected'; issues: ImportIssue[]; issueCount: number }
  | { kind: 'refused'; title: string; message: string };

const bytes = (size: number) =>
  size < 1024 * 1024
    ? `${Math.max(1, Math.round(size / 1024)).toLocaleString('en-IE')} KiB`
    : `${(size / (1024 * 1024)).toLocaleString('en-IE', { maximumFractionDigits: 1 })} MiB`;

/** Issues of a 400 as the API client hands them over (its issue type is a wider one). */
function issuesOf(error: ApiError): ImportIssue[] {
  return error.issues.map((issue) => ({
    line: issue.line ?? null,
    column: issue.column ?? null,
    code: issue.code ?? '',
    message: issue.message,
  }));
}

/**
 * `/schemes/$schemeId/import`: a CSV file of members or contributions, previewed from its first
 * 64 KiB, uploaded as it is (never read whole in the browser), followed while the service checks
 * it, and ended with what was written or every bad row by line and reason. The service writes all
 * rows or none.
 */
export function ImportWizardPage() {
  const { schemeId = '' } = useParams({ strict: false });
  const session = useSignedIn();
  const { user } = session;
  const client = useQueryClient();
  const scheme = useScheme(schemeId);
  const [kind, setKind] = useState<ImportKind>('members');
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [step, setStep] = useState(0);
  const [earlierIds, setEarlierIds] = useState<ReadonlySet<string> | null>(null);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const progress = useImportProgress({
    schemeId,
    kind,
    userId: user.id,
    earlierIds,
    active: uploading,
  });
  // The latest progress, for the answer of an upload that started several renders ago.
  const latestProgress = useRef(progress);
  latestProgress.current = progress;

  if (scheme.isPending) return <Loading label="Loading the scheme" />;
  if (scheme.isError) {
    if (isNotFound(scheme.error)) return <NotFoundPage />;
    return <Alert color="red">{describeError(scheme.error)}</Alert>;
  }
  const format = IMPORT_FORMATS[kind];

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setPreview(null);
    setFileProblem(null);
    if (!chosen) return;
    // Checked here too, so that nobody waits for 25 MiB to travel only to be refused.
    if (chosen.size > MAX_IMPORT_BYTES) {
      setFileProblem(`The file is ${bytes(chosen.size)}; the largest file accepted is 25 MiB.`);
      return;
    }
    if (chosen.size === 0) {
      setFileProblem('The file is empty: its first line must name the columns.');
      return;
    }
    try {
      setPreview(await previewCsv(chosen));
    } catch {
      setFileProblem('The file could not be read. Choose it again.');
    }
  };

  const start = async () => {
    if (!file) return;
    setStep(2);
    setOutcome(null);
    setUploading(true);
    try {
      // The imports already there, so that the new one can be told apart while it runs.
      const before = await api(
        pageOf(importSummary),
        'GET',
        `/api/schemes/${schemeId}/imports?limit=10`,
      ).catch(() => ({ items: [] as ImportSummary[], nextCursor: null }));
      setEarlierIds(new Set(before.items.map((item) => item.id)));
      const result = await upload(
        importView,
        `/api/schemes/${schemeId}/${kind}/import?fileName=${encodeURIComponent(file.name)}`,
        file,
        'text/csv',
      );
      setOutcome({ kind: 'imported', result });
      notifications.show({
        color: 'green',
        message: `${result.rowsWritten.toLocaleString('en-IE')} ${kind === 'members' ? 'members' : 'contributions'} imported`,
      });
    } catch (error) {
      setOutcome(await outcomeOfFailure(error));
    } finally {
      setUploading(false);
      setEarlierIds(null);
      void client.invalidateQueries({ queryKey: ['schemes', schemeId] });
    }
  };

  /** A rejection lists up to 10,000 problems; the import's record counts all of them. */
  const outcomeOfFailure = async (error: unknown): Promise<Outcome> => {
    if (!(error instanceof ApiError)) {
      return { kind: 'refused', title: 'The upload failed', message: describeError(error) };
    }
    if (error.status === 400 && error.issues.some((issue) => 'line' in issue)) {
      const issues = issuesOf(error);
      let issueCount = issues.length;
      const followed = latestProgress.current;
      if (followed !== null && issues.length >= 10_000) {
        const record = await api(importView, 'GET', `/api/imports/${followed.id}`).catch(
          () => null,
        );
        issueCount = record?.issueCount ?? issueCount;
      }
      return { kind: 'rejected', issues, issueCount };
    }
    if (error.status === 409) {
      return { kind: 'refused', title: 'Already imported', message: error.error };
    }
    if (error.status === 413) {
      return {
        kind: 'refused',
        title: 'File too large',
        message: 'The file is over 25 MiB. Split it into smaller files and import each.',
      };
    }
    return { kind: 'refused', title: 'The file was not imported', message: describeError(error) };
  };

  const restart = () => {
    setFile(null);
    setPreview(null);
    setOutcome(null);
    setStep(0);
  };

  if (!can(session, 'member.import') && !can(session, 'contribution.import')) {
    return (
      <Stack gap="md">
        <Title order={2}>Import a CSV file</Title>
        <Alert color="yellow">
          Importing files into a scheme is not part of what your role works on.
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Import a CSV file</Title>
        <Text c="dimmed">
          Into{' '}
          <Anchor component={Link} to={`/schemes/${schemeId}`} underline="always">
            {scheme.data.name}
          </Anchor>
          . Every row is checked first; if any row is wrong, nothing is written.
        </Text>
      </div>
      <Stepper
        active={step}
        onStepClick={(target) => {
          if (!uploading && target < step) setStep(target);
        }}
        allowNextStepsSelect={false}
      >
        <Stepper.Step label="Choose" description="What and which file">
          <Stack gap="md" mt="md">
            <Radio.Group
              label="The file contains"
              value={kind}
              onChange={(value) => setKind(value as ImportKind)}
            >
              <Group mt="xs">
                <Radio value="members" label="Members" />
                <Radio value="contributions" label="Contributions" />
              </Group>
            </Radio.Group>
            <ExpectedColumns format={format} kind={kind} />
            <FileInput
              label="CSV file"
              description="UTF-8, comma-separated, headings on the first line; at most 25 MiB"
              accept=".csv,text/csv"
              value={file}
              onChange={choose}
              error={fileProblem}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
            />
            <Group justify="flex-end">
              <Button onClick={() => setStep(1)} disabled={!file || !preview || !!fileProblem}>
                Preview the file
              </Button>
            </Group>
          </Stack>
        </Stepper.Step>

        <Stepper.Step label="Preview" description="Check the columns">
          <Stack gap="md" mt="md">
            {file && preview && (
              <>
                <Text>
                  <strong>{file.name}</strong> ({bytes(file.size)}), a file of{' '}
                  {format.label.toLowerCase()}.
                </Text>
                <ImportPreviewTable preview={preview} format={format} />
              </>
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(0)}>
                Back
              </Button>
              <Button onClick={start}>Start import</Button>
            </Group>
          </Stack>
        </Stepper.Step>

        <Stepper.Step label="Import" description="Check and write">
          <Stack gap="md" mt="md">
            {uploading && file && <ImportProgress fileBytes={file.size} progress={progress} />}
            {outcome && <OutcomeView outcome={outcome} kind={kind} />}
            {outcome && (
              <Group>
                <Button onClick={restart}>Import another file</Button>
                <Button variant="default" component={Link} to={`/schemes/${schemeId}`}>
                  Back to the scheme
                </Button>
              </Group>
            )}
          </Stack>
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}

function OutcomeView({ outcome, kind }: { outcome: Outcome; kind: ImportKind }) {
  if (outcome.kind === 'imported') {
    const { result } = outcome;
    return (
      <Stack gap="sm">
        <Alert color="green" title="Imported" role="status">
          All rows were written: {result.rowsWritten.toLocaleString('en-IE')}{' '}
          {kind === 'members' ? 'members' : 'contributions'}.
        </Alert>
        <DataList labelWidth="9rem">
          <DataList.Item>
            <DataList.ItemLabel>Rows read</DataList.ItemLabel>
            <DataList.ItemValue>{result.rowsRead.toLocaleString('en-IE')}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Rows written</DataList.ItemLabel>
            <DataList.ItemValue>{result.rowsWritten.toLocaleString('en-IE')}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>File size</DataList.ItemLabel>
            <DataList.ItemValue>{bytes(result.fileBytes)}</DataList.ItemValue>
          </DataList.Item>
          {result.fileName && (
            <DataList.Item>
              <DataList.ItemLabel>File</DataList.ItemLabel>
              <DataList.ItemValue>{result.fileName}</DataList.ItemValue>
            </DataList.Item>
          )}
          {result.uploadedBy && (
            <DataList.Item>
              <DataList.ItemLabel>Uploaded by</DataList.ItemLabel>
              <DataList.ItemValue>{result.uploadedBy}</DataList.ItemValue>
            </DataList.Item>
          )}
        </DataList>
        {result.totals && <ImportTotals totals={result.totals} />}
      </Stack>
    );
  }
  if (outcome.kind === 'rejected') {
    return (
      <Stack gap="sm">
        <Alert color="red" title="The file was not imported" role="alert">
          Nothing was written. Correct the rows below and import the file again.
        </Alert>
        <ImportIssuesTable issues={outcome.issues} issueCount={outcome.issueCount} />
      </Stack>
    );
  }
  return (
    <Alert color="red" title={outcome.title} role="alert">
      {outcome.message}
    </Alert>
  );
}

/** What a contributions file recorded per kind, to check against the payroll run's totals. */
function ImportTotals({ totals }: { totals: PaidIn }) {
  const rows: Array<[string, number]> = [
    ['Employee', totals.employeeCents],
    ['Employer', totals.employerCents],
    ['AVC', totals.avcCents],
    ['Total', totals.totalCents],
  ];
  return (
    <Table maw={360}>
      <Table.Caption>Totals to check against the payroll run</Table.Caption>
      <Table.Tbody>
        {rows.map(([label, cents]) => (
          <Table.Tr key={label} fw={label === 'Total' ? 700 : undefined}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td ta="right">{formatCents(cents)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
