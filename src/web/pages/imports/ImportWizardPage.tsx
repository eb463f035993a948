import {
  Alert,
  Anchor,
  Button,
  DataList,
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
import { Link, useParams, useSearch } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { CONTRIBUTION_KIND_LABELS, CONTRIBUTION_KINDS } from '../../../contracts/contributions';
import { fileSizeInWords } from '../../../contracts/file-size';
import { IMPORT_KINDS, savedInWords } from '../../../contracts/imports';
import { formatCents } from '../../../contracts/money';
import { counted } from '../../../contracts/plain-english';
import { api, upload } from '../../api/client';
import type { ImportDetail, ImportKind, ImportSummary, PaidIn } from '../../api/types';
import { useSignedIn } from '../../auth/session';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { refreshAfterImport } from '../home/overview-cache';
import { useScheme } from '../schemes/SchemeQueries';
import { CsvFileChoice } from './CsvFileChoice';
import { type UploadFailure, uploadFailure } from './csvUpload';
import { ExpectedColumns } from './ExpectedColumns';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportProgress } from './ImportProgress';
import { IMPORT_FORMATS, refusalOfPreview } from './importFormats';
import { StartButton } from './StartButton';
import { UploadFailureView } from './UploadFailureView';
import { useCsvChoice } from './useCsvChoice';
import { useImportProgress } from './useImportProgress';

/** How an upload ended, as the wizard's last step shows it. */
type Outcome = { kind: 'imported'; result: ImportDetail } | UploadFailure;

const bytes = fileSizeInWords;

/**
 * `/schemes/$schemeId/import`: a CSV file of members or contributions, previewed from its first
 * 64 KiB, uploaded as it is (never read whole in the browser), followed while the service checks
 * it, and ended with what was written or every bad row by line and reason. The service writes all
 * rows or none.
 */
export function ImportWizardPage() {
  const { schemeId = '' } = useParams({ strict: false });
  const { user } = useSignedIn();
  const client = useQueryClient();
  const scheme = useScheme(schemeId);
  // A link that says what the file holds (the home page's "Upload contributions") opens on that
  // kind; otherwise on members, the first file a new scheme needs.
  const asked = (useSearch({ strict: false }) as { kind?: unknown }).kind;
  const [kind, setKind] = useState<ImportKind>(
    IMPORT_KINDS.find((known) => known === asked) ?? 'members',
  );
  const chosen = useCsvChoice();
  const { file, preview } = chosen;
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
  if (scheme.isError) return <LoadError error={scheme.error} />;
  const format = IMPORT_FORMATS[kind];
  // A file the preview already knows the service will refuse whole is not offered for sending.
  const refusal = preview ? refusalOfPreview(format, preview) : null;

  const start = async () => {
    if (!file || refusal) return;
    setStep(2);
    setOutcome(null);
    setUploading(true);
    try {
      // The imports already there, so that the new one can be told apart while it runs.
      const before = await api(apiRoutes.imports.listOfScheme, {
        params: { id: schemeId },
        query: { limit: 10 },
      }).catch(() => ({ items: [] as ImportSummary[], nextCursor: null }));
      setEarlierIds(new Set(before.items.map((item) => item.id)));
      const result = await upload(
        apiRoutes.imports[kind],
        { params: { id: schemeId }, query: { fileName: file.name } },
        file,
        'text/csv',
      );
      setOutcome({ kind: 'imported', result });
      notifications.show({
        color: 'green',
        message: `${savedInWords(kind, result.rowsWritten)} imported`,
      });
    } catch (error) {
      setOutcome(await outcomeOfFailure(error));
    } finally {
      setUploading(false);
      setEarlierIds(null);
      void refreshAfterImport(client, schemeId);
    }
  };

  /** A rejection lists up to 10,000 problems; the import's record counts all of them. */
  const outcomeOfFailure = async (error: unknown): Promise<Outcome> => {
    const failure = uploadFailure(error);
    const followed = latestProgress.current;
    if (failure.kind === 'rejected' && followed !== null && failure.issues.length >= 10_000) {
      const record = await api(apiRoutes.imports.get, { params: { id: followed.id } }).catch(
        () => null,
      );
      return { ...failure, issueCount: record?.issueCount ?? failure.issueCount };
    }
    return failure;
  };

  const restart = () => {
    chosen.clear();
    setOutcome(null);
    setStep(0);
  };

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
            <ExpectedColumns format={format} templateName={`${kind}-template.csv`} />
            <CsvFileChoice chosen={chosen} onNext={() => setStep(1)} />
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
              <StartButton label="Start import" refusal={refusal} onStart={start} />
            </Group>
          </Stack>
        </Stepper.Step>

        <Stepper.Step label="Import" description="Check and write">
          <Stack gap="md" mt="md">
            {uploading && file && (
              <ImportProgress
                fileBytes={file.size}
                progress={progress}
                checkedAgainst="the scheme"
              />
            )}
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
          Every row of the file was saved: {savedInWords(kind, result.rowsWritten)} from{' '}
          {counted(result.rowsRead, 'row')}.
        </Alert>
        <DataList labelWidth="9rem">
          <DataList.Item>
            <DataList.ItemLabel>Rows read</DataList.ItemLabel>
            <DataList.ItemValue>{result.rowsRead.toLocaleString('en-IE')}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Saved</DataList.ItemLabel>
            <DataList.ItemValue>{savedInWords(kind, result.rowsWritten)}</DataList.ItemValue>
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
  return <UploadFailureView failure={outcome} />;
}

/** What a contributions file recorded per kind, to check against the payroll run's totals. */
function ImportTotals({ totals }: { totals: PaidIn }) {
  const rows: Array<[string, number]> = [
    ...CONTRIBUTION_KINDS.map((kind): [string, number] => [
      CONTRIBUTION_KIND_LABELS[kind],
      totals[`${kind}Cents`],
    ]),
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
