import { Button, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { oraReportInput, significantChangeInput } from '../../../contracts/governance';
import {
  ORA_TRIGGER_NAMES,
  ORA_TRIGGERS,
  type OraTrigger,
  SIGNIFICANT_CHANGE_EFFECTS,
} from '../../../contracts/governance-rules';
import { todayInIreland } from '../../../contracts/irish-dates';
import { api } from '../../api/client';
import type { OraReport, Scheme, SignificantChange } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { DocumentLinkCell } from './DocumentLink';
import { FormModal, FormShell } from './GovernanceForm';
import { orNull, shownDate, validateWithDates } from './governance-helpers';
import { type Register, registerKey, useRefreshGovernance } from './governanceQueries';

/** The scheme's own-risk assessments, latest first, each with when the next falls due. */
export function OraRegister({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const refresh = useRefreshGovernance(scheme.id);
  const [recording, setRecording] = useState(false);
  const [deleting, setDeleting] = useState<OraReport | null>(null);
  const columns: Column<OraReport>[] = [
    {
      key: 'performedOn',
      header: 'Performed on',
      render: (report) => shownDate(report.performedOn),
      sortValue: (report) => report.performedOn,
    },
    { key: 'trigger', header: 'Why', render: (report) => ORA_TRIGGER_NAMES[report.trigger] },
    { key: 'summary', header: 'Summary', render: (report) => report.summary ?? '—' },
    {
      key: 'nextDue',
      header: 'Next due',
      render: (report) => shownDate(report.nextDue),
      sortValue: (report) => report.nextDue,
    },
    {
      key: 'document',
      header: 'Report',
      render: (report) => (
        <DocumentLinkCell
          scheme={scheme}
          entry={report}
          target={{
            register: 'ora_report',
            route: apiRoutes.oraReports.update,
            id: report.id,
            list: 'ora',
            name: `the own-risk assessment of ${shownDate(report.performedOn)}`,
          }}
          canChange={canChange(session, 'ora.update', scheme)}
        />
      ),
    },
  ];
  if (canChange(session, 'ora.delete', scheme)) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (report) => (
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          onClick={() => setDeleting(report)}
          aria-label={`Delete the own-risk assessment of ${shownDate(report.performedOn)}`}
        >
          Delete
        </Button>
      ),
    });
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-ora">
      <PageHeading title="Own-risk assessments" order={3} id="governance-ora">
        {canChange(session, 'ora.create', scheme) && (
          <Button variant="light" onClick={() => setRecording(true)}>
            Record an own-risk assessment
          </Button>
        )}
      </PageHeading>
      <CursorTable
        queryKey={registerKey(scheme.id, 'ora')}
        route={apiRoutes.oraReports.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100 }}
        columns={columns}
        caption="Own-risk assessments, latest first"
        empty="No own-risk assessment is recorded."
      />
      <FormModal
        opened={recording}
        title="Record an own-risk assessment"
        onClose={() => setRecording(false)}
      >
        <OraForm scheme={scheme} onClose={() => setRecording(false)} />
      </FormModal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete own-risk assessment"
        confirmLabel="Delete"
        onConfirm={async () => {
          if (!deleting) return;
          await api(apiRoutes.oraReports.remove, { params: { id: deleting.id } });
          notifySuccess('Own-risk assessment deleted.');
          await refresh('ora');
        }}
      >
        <Text>
          Delete the own-risk assessment of {deleting ? shownDate(deleting.performedOn) : ''}?
          Delete only an entry made in error.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

interface OraValues {
  performedOn: string;
  trigger: OraTrigger;
  summary: string;
}

const oraBody = (values: OraValues) => ({
  performedOn: values.performedOn,
  trigger: values.trigger,
  summary: orNull(values.summary),
});

function OraForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const refresh = useRefreshGovernance(scheme.id);
  const today = todayInIreland(new Date());
  const form = useForm<OraValues>({
    initialValues: { performedOn: today, trigger: 'scheduled', summary: '' },
    validate: validateWithDates(oraReportInput, oraBody, { performedOn: { required: true } }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const report = await api(apiRoutes.oraReports.create, {
      params: { id: scheme.id },
      body: oraBody(values),
    });
    notifySuccess(`Own-risk assessment recorded; the next is due by ${shownDate(report.nextDue)}.`);
    await refresh('ora');
    onClose();
  });
  return (
    <FormShell
      label="Record an own-risk assessment"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record"
      onCancel={onClose}
    >
      <IrishDateInput
        label="Performed on"
        required
        maxDate={today}
        data-autofocus
        {...form.getInputProps('performedOn')}
      />
      <NativeSelect
        label="Why it was performed"
        data={ORA_TRIGGERS.map((trigger) => ({
          value: trigger,
          label: ORA_TRIGGER_NAMES[trigger],
        }))}
        {...form.getInputProps('trigger')}
      />
      <Textarea
        label="Summary (optional)"
        autosize
        minRows={3}
        {...form.getInputProps('summary')}
      />
    </FormShell>
  );
}

/** The significant changes recorded for the scheme: its risk profile's and its policies'. */
export function SignificantChangesRegister({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const [recording, setRecording] = useState(false);
  const columns: Column<SignificantChange>[] = [
    {
      key: 'occurredOn',
      header: 'Occurred on',
      render: (change) => shownDate(change.occurredOn),
      sortValue: (change) => change.occurredOn,
    },
    {
      key: 'concerns',
      header: 'Concerns',
      render: (change) =>
        change.policyId === null ? 'The risk profile (own-risk assessment)' : 'A written policy',
    },
    { key: 'description', header: 'Description', render: (change) => change.description },
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-changes">
      <PageHeading title="Significant changes" order={3} id="governance-changes">
        {canChange(session, 'risk_profile.change', scheme) && (
          <Button variant="light" onClick={() => setRecording(true)}>
            Record a change in the risk profile
          </Button>
        )}
      </PageHeading>
      <CursorTable
        queryKey={registerKey(scheme.id, 'changes')}
        route={apiRoutes.significantChanges.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100 }}
        columns={columns}
        caption="Significant changes, latest first"
        empty="No significant change is recorded."
      />
      <FormModal
        opened={recording}
        title="Record a change in the risk profile"
        onClose={() => setRecording(false)}
      >
        <SignificantChangeForm
          scheme={scheme}
          target={{ route: apiRoutes.significantChanges.riskProfile, id: scheme.id }}
          registers={['changes']}
          about={SIGNIFICANT_CHANGE_EFFECTS.riskProfile}
          onClose={() => setRecording(false)}
        />
      </FormModal>
    </Stack>
  );
}

interface ChangeValues {
  occurredOn: string;
  description: string;
}

/** A significant change, in a policy's area (`target` the policy) or the risk profile. */
export function SignificantChangeForm({
  scheme,
  target,
  registers,
  about,
  onClose,
}: {
  scheme: Scheme;
  /** Where the change is recorded: under the policy, or the scheme's risk profile. */
  target: {
    route:
      | typeof apiRoutes.policies.significantChange
      | typeof apiRoutes.significantChanges.riskProfile;
    id: string;
  };
  /** The registers the change shows in: the changes, and a policy's next review. */
  registers: Register[];
  about: string;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const today = todayInIreland(new Date());
  const form = useForm<ChangeValues>({
    initialValues: { occurredOn: today, description: '' },
    validate: validateWithDates(significantChangeInput, (values) => values, {
      occurredOn: { required: true },
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(target.route, { params: { id: target.id }, body: values });
    notifySuccess('Significant change recorded.');
    await refresh(...registers);
    onClose();
  });
  return (
    <FormShell
      label="Record a significant change"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record"
      onCancel={onClose}
    >
      <Text>{about}</Text>
      <IrishDateInput
        label="Occurred on"
        required
        maxDate={today}
        data-autofocus
        {...form.getInputProps('occurredOn')}
      />
      <Textarea
        label="What changed"
        required
        autosize
        minRows={3}
        {...form.getInputProps('description')}
      />
    </FormShell>
  );
}
