import { Alert, Anchor, Button, Group, Stack, Stepper, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import type { PayrollUploadSummary, PayrollUploadView } from '../../../contracts/auto-enrolment';
import { fileSizeInWords } from '../../../contracts/file-size';
import { counted } from '../../../contracts/plain-english';
import { api, upload } from '../../api/client';
import { can, employerRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { PageHeading } from '../../components/PageHeading';
import { CsvFileChoice } from '../imports/CsvFileChoice';
import { type UploadFailure, uploadFailure } from '../imports/csvUpload';
import { ExpectedColumns } from '../imports/ExpectedColumns';
import { ImportPreviewTable } from '../imports/ImportPreviewTable';
import { ImportProgress } from '../imports/ImportProgress';
import { refusalOfPreview } from '../imports/importFormats';
import { StartButton } from '../imports/StartButton';
import { UploadFailureView } from '../imports/UploadFailureView';
import { useCsvChoice } from '../imports/useCsvChoice';
import { ArrangementIds } from './ArrangementIds';
import { AE_KEY } from './aeQueries';
import { DeleteUploadButton } from './DeleteUploadButton';
import { PAYROLL_FORMAT } from './payrollFormat';
import { usePayrollProgress } from './usePayrollProgress';

type Outcome = { kind: 'stored'; upload: PayrollUploadView } | UploadFailure;

/**
 * `/employers/$employerId/auto-enrolment/upload`: a payroll CSV for the automatic-enrolment
 * assessment (docs/imports.md, "Payroll for auto-enrolment readiness"), chosen, previewed from its
 * first 64 KiB, sent as it is and answered with what was stored or every bad row by line. The
 * service stores all rows or none. An employer's administrator uploads for their own employer, a
 * broker's staff for any of theirs; the policy table decides (contracts/policy.ts).
 */
export function PayrollUploadPage() {
  const { employerId = '' } = useParams({ strict: false });
  const session = useSignedIn();
  const client = useQueryClient();
  const employer = useQuery({
    queryKey: ['employers', employerId],
    queryFn: () => api(apiRoutes.employers.get, { params: { id: employerId } }),
  });
  const chosen = useCsvChoice();
  const [step, setStep] = useState(0);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [earlierIds, setEarlierIds] = useState<ReadonlySet<string> | null>(null);
  const progress = usePayrollProgress({
    employerId,
    userId: session.user.id,
    earlierIds,
    active: uploading,
  });
  if (employer.isPending) return <Loading label="Loading the employer" />;
  if (employer.isError) return <LoadError error={employer.error} />;
  const { file, preview } = chosen;
  const reportPath = `/employers/${employerId}/auto-enrolment`;
  // As the members and contributions wizard does: a file the preview already knows the service
  // refuses whole is not offered for sending until it is corrected.
  const refusal = preview ? refusalOfPreview(PAYROLL_FORMAT, preview) : null;

  const start = async () => {
    if (!file || refusal) return;
    setStep(2);
    setOutcome(null);
    setUploading(true);
    try {
      // The uploads already there, so that the new one can be told apart while it runs.
      const before = await api(apiRoutes.autoEnrolment.payrollUploads, {
        params: { id: employerId },
        query: { limit: 10 },
      }).catch(() => ({ items: [] as PayrollUploadSummary[], nextCursor: null }));
      setEarlierIds(new Set(before.items.map((item) => item.id)));
      const stored = await upload(
        apiRoutes.autoEnrolment.importPayroll,
        { params: { id: employerId }, query: { fileName: file.name } },
        file,
        'text/csv',
      );
      setOutcome({ kind: 'stored', upload: stored });
    } catch (error) {
      setOutcome(uploadFailure(error));
    } finally {
      setUploading(false);
      setEarlierIds(null);
      void client.invalidateQueries({ queryKey: [...AE_KEY, employerId] });
    }
  };

  const restart = () => {
    chosen.clear();
    setOutcome(null);
    setStep(0);
  };

  const row = employerRow(employer.data);
  if (!can(session, 'ae_payroll.import', row)) {
    return (
      <Alert color="yellow">Uploading payroll files is not part of what your role works on.</Alert>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <PageHeading title="Upload a payroll file" />
        <Text c="dimmed">
          For the automatic-enrolment assessment of{' '}
          <Anchor component={Link} to={`/employers/${employerId}`} underline="always">
            {employer.data.name}
          </Anchor>
          . Every row is checked first; if any row is wrong, nothing is stored.
        </Text>
      </div>
      <Stepper
        active={step}
        onStepClick={(target) => {
          if (!uploading && target < step) setStep(target);
        }}
        allowNextStepsSelect={false}
      >
        <Stepper.Step label="Choose" description="The payroll file">
          <Stack gap="md" mt="md">
            <ExpectedColumns format={PAYROLL_FORMAT} templateName="payroll-template.csv" />
            <ArrangementIds employerId={employerId} />
            <CsvFileChoice chosen={chosen} onNext={() => setStep(1)} />
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Preview" description="Check the columns">
          <Stack gap="md" mt="md">
            {file && preview && (
              <>
                <Text>
                  <strong>{file.name}</strong> ({fileSizeInWords(file.size)}), a payroll file.
                </Text>
                <ImportPreviewTable preview={preview} format={PAYROLL_FORMAT} />
              </>
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(0)}>
                Back
              </Button>
              <StartButton label="Start upload" refusal={refusal} onStart={start} />
            </Group>
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Upload" description="Check and store">
          <Stack gap="md" mt="md">
            {uploading && file && (
              <ImportProgress
                fileBytes={file.size}
                progress={progress}
                checkedAgainst="the employer’s schemes"
              />
            )}
            {outcome?.kind === 'stored' && <Stored upload={outcome.upload} />}
            {outcome && outcome.kind !== 'stored' && <UploadFailureView failure={outcome} />}
            {outcome && (
              <Group>
                {outcome.kind === 'stored' && (
                  <Button component={Link} to={reportPath}>
                    Open the assessment
                  </Button>
                )}
                {outcome.kind === 'stored' && can(session, 'ae_payroll.delete', row) && (
                  <DeleteUploadButton
                    employerId={employerId}
                    upload={outcome.upload}
                    onDeleted={restart}
                  />
                )}
                <Button
                  variant={outcome.kind === 'stored' ? 'default' : 'filled'}
                  onClick={restart}
                >
                  Upload another file
                </Button>
              </Group>
            )}
          </Stack>
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}

function Stored({ upload: stored }: { upload: PayrollUploadView }) {
  return (
    <Alert color="green" title="Stored" role="status">
      {stored.rowsWritten === 1
        ? 'The one payroll row was stored'
        : `All ${counted(stored.rowsWritten, 'payroll row')} were stored`}
      {stored.employeesWritten > 0
        ? `, naming ${counted(stored.employeesWritten, 'employee')} for the first time`
        : ''}
      . The assessment now reads them.
    </Alert>
  );
}
