import {
  Anchor,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  ICT_SERVICE_LABELS,
  ICT_SERVICES,
  type IctIncidentView,
  type IctService,
  ictIncidentInput,
  ictReportInput,
} from '../../../contracts/dora';
import {
  type ClassificationFacts,
  CRITERION_LABELS,
  classificationInWords,
  DEADLINE_KIND_LABELS,
  DORA_RULES,
  INITIAL_HOURS_AFTER_AWARENESS,
  INITIAL_HOURS_AFTER_CLASSIFICATION,
  isMajor,
  NEXT_WORKING_DAY_TIME,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  type ReportKind,
  thresholdsMet,
} from '../../../contracts/dora-rules';
import { todayInIreland } from '../../../contracts/irish-dates';
import { EURO_FORMAT_HINT, euroFieldError, plainEuro, readEuro } from '../../../contracts/money';
import { sourceInWords, sourcesInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { MomentFields } from '../../components/MomentFields';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { instantOf, momentErrors } from '../data-breaches/breach-helpers';
import { FormModal, FormShell } from '../governance/GovernanceForm';

/** Every read of the register sits under this key: a step refreshes it. */
const INCIDENTS_KEY = ['ict-incidents'] as const;

const today = () => todayInIreland(new Date());

type Incident = IctIncidentView;
type Dialog = { kind: 'record' } | { kind: 'classify' | 'report' | 'preview'; incident: Incident };

/**
 * `/ict-incidents`: the firm's register of ICT incidents under DORA
 * (docs/decisions/0139-dora-ict-incidents.md), the latest recorded first, each with its
 * classification and the deadlines of its reports counting down in words; forms to record an
 * incident, classify it against the criteria, record a report sent, and preview a report
 * pre-filled in the template.
 */
export function IctIncidentsPage() {
  const session = useSignedIn();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const may = (incident: Incident, action: Parameters<typeof can>[1]) =>
    can(session, action, { brokerId: incident.brokerId ?? '', employerId: null });
  const columns: Column<Incident>[] = [
    {
      key: 'title',
      header: 'Incident',
      render: (incident) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {incident.reference === null
              ? incident.title
              : `${incident.reference}: ${incident.title}`}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {incident.description}
          </Text>
          <Text size="sm" c="dimmed">
            {incident.servicesAffected.map((service) => ICT_SERVICE_LABELS[service]).join('; ')}
          </Text>
          {incident.platformIncidentId !== null && (
            <Text size="sm" c="dimmed">
              Recorded by the platform’s operator: an incident of the platform itself
            </Text>
          )}
        </Stack>
      ),
    },
    // What needs doing, and by when, next to the incident it is for: a phone shows these first.
    {
      key: 'deadlines',
      header: 'Reports due',
      render: (incident) =>
        incident.deadlines.length === 0 ? (
          incident.classification === null ? (
            'None until it is classified'
          ) : (
            'None: not major'
          )
        ) : (
          <Stack gap={2}>
            {incident.deadlines.map((deadline) => (
              <Text
                key={deadline.kind}
                size="sm"
                fw={deadline.status === 'overdue' ? 700 : undefined}
              >
                {deadline.words}
                {deadline.dueAt !== null &&
                  (deadline.status === 'due' || deadline.status === 'overdue') && (
                    <>
                      {' '}
                      (by <DateTime value={deadline.dueAt} />)
                    </>
                  )}
              </Text>
            ))}
          </Stack>
        ),
    },
    {
      key: 'becameAwareAt',
      header: 'Became aware',
      render: (incident) => <DateTime value={incident.becameAwareAt} />,
      sortValue: (incident) => incident.becameAwareAt,
    },
    {
      key: 'classification',
      header: 'Classification',
      render: (incident) =>
        incident.classification === null ? (
          'Not classified yet'
        ) : (
          <Text size="sm">{incident.classification.words}</Text>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (incident) => (
        <Group gap="xs">
          {may(incident, 'ict_incident.classify') && (
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Classify: ${incident.title}`}
              onClick={() => setDialog({ kind: 'classify', incident })}
            >
              Classify
            </Button>
          )}
          {incident.deadlines.length > 0 && may(incident, 'ict_incident.report') && (
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Record a report: ${incident.title}`}
              onClick={() => setDialog({ kind: 'report', incident })}
            >
              Record a report
            </Button>
          )}
          {may(incident, 'ict_incident.template') && (
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Preview a report: ${incident.title}`}
              onClick={() => setDialog({ kind: 'preview', incident })}
            >
              Preview a report
            </Button>
          )}
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeading title="ICT incidents">
        {can(session, 'ict_incident.create') && (
          <Button onClick={() => setDialog({ kind: 'record' })}>Record an incident</Button>
        )}
      </PageHeading>
      {can(session, 'ict_register.export') && (
        <Text size="sm">
          The register of information, of this platform and the firm’s other ICT providers, is
          downloaded from the{' '}
          <Anchor component={Link} to="/ict-providers">
            ICT providers
          </Anchor>{' '}
          page.
        </Text>
      )}
      <Stack gap={2}>
        <Text size="sm">
          Every ICT-related incident, classified as major or not by the criteria the law sets. A
          major one is reported to the Pensions Authority: first within{' '}
          {INITIAL_HOURS_AFTER_CLASSIFICATION} hours of classifying it as major, and no later than{' '}
          {INITIAL_HOURS_AFTER_AWARENESS} hours after becoming aware of it. A time limit on a
          weekend or a public holiday moves to {NEXT_WORKING_DAY_TIME} on the next working day.
        </Text>
        <Text size="xs" c="dimmed">
          {sourcesInWords([
            DORA_RULES.majorIncident,
            DORA_RULES.initialNotification,
            DORA_RULES.notWorkingDay,
          ]).join(' · ')}
        </Text>
      </Stack>
      <CursorTable
        queryKey={INCIDENTS_KEY}
        route={apiRoutes.ictIncidents.list}
        columns={columns}
        caption="ICT incidents, the latest recorded first"
        empty="No incident is recorded."
        rowNoun="incident"
      />
      <FormModal opened={dialog?.kind === 'record'} title="Record an incident" onClose={close}>
        <IncidentForm onClose={close} />
      </FormModal>
      <FormModal opened={dialog?.kind === 'classify'} title="Classify an incident" onClose={close}>
        {dialog?.kind === 'classify' && <ClassifyForm incident={dialog.incident} onClose={close} />}
      </FormModal>
      <FormModal opened={dialog?.kind === 'report'} title="Record a report sent" onClose={close}>
        {dialog?.kind === 'report' && <ReportForm incident={dialog.incident} onClose={close} />}
      </FormModal>
      <FormModal opened={dialog?.kind === 'preview'} title="Report preview" onClose={close}>
        {dialog?.kind === 'preview' && <ReportPreview incident={dialog.incident} />}
      </FormModal>
    </Stack>
  );
}

function useRefreshIncidents() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: INCIDENTS_KEY });
}

interface IncidentValues {
  title: string;
  description: string;
  detectedAt: string;
  detectedTime: string;
  becameAwareAt: string;
  becameAwareTime: string;
  servicesAffected: string[];
}

const incidentBody = (values: IncidentValues) => ({
  title: values.title,
  description: values.description,
  detectedAt: instantOf(values.detectedAt, values.detectedTime),
  becameAwareAt: instantOf(values.becameAwareAt, values.becameAwareTime),
  servicesAffected: values.servicesAffected as IctService[],
});

/** An incident recorded: what happened, when it was detected and known, what it affects. */
function IncidentForm({ onClose }: { onClose: () => void }) {
  const refresh = useRefreshIncidents();
  const form = useForm<IncidentValues>({
    initialValues: {
      title: '',
      description: '',
      detectedAt: '',
      detectedTime: '',
      becameAwareAt: '',
      becameAwareTime: '',
      servicesAffected: [],
    },
    validate: (values) => ({
      ...validateWith(ictIncidentInput, incidentBody)(values),
      ...momentErrors({ ...values }, 'detectedAt', 'detectedTime'),
      ...momentErrors({ ...values }, 'becameAwareAt', 'becameAwareTime'),
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const incident = await api(apiRoutes.ictIncidents.create, { body: incidentBody(values) });
    notifySuccess(`Recorded: ${incident.title}. Classify it to see whether it is major.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Record an incident"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record incident"
      onCancel={onClose}
    >
      <TextInput label="Title" required data-autofocus {...form.getInputProps('title')} />
      <Textarea
        label="What happened"
        required
        autosize
        minRows={3}
        {...form.getInputProps('description')}
      />
      <MomentFields
        label="Detected"
        day={form.getInputProps('detectedAt')}
        time={form.getInputProps('detectedTime')}
      />
      <MomentFields
        label="Became aware"
        day={form.getInputProps('becameAwareAt')}
        time={form.getInputProps('becameAwareTime')}
      />
      <MultiSelect
        label="Services affected"
        required
        data={ICT_SERVICES.map((service) => ({
          value: service,
          label: ICT_SERVICE_LABELS[service],
        }))}
        comboboxProps={{ withinPortal: false }}
        {...form.getInputProps('servicesAffected')}
      />
    </FormShell>
  );
}

interface ClassifyValues {
  criticalServicesAffected: boolean;
  membersAffected: number | string;
  membersOfService: number | string;
  relevantMembersAffected: boolean;
  reputationalImpact: boolean;
  durationHours: number | string;
  downtimeHours: number | string;
  memberStatesAffected: number | string;
  dataLosses: boolean;
  economicImpactEuro: string;
  majorAsRecurrence: boolean;
}

const numberOr = (value: number | string, otherwise: number) =>
  typeof value === 'number' ? value : otherwise;

/** The costs and losses typed in euro, as cents by the one money rule; nothing typed is none. */
function costsOf(typed: string): number {
  if (typed.trim() === '') return 0;
  const reading = readEuro(typed);
  return reading.ok ? reading.cents : 0;
}

function criteriaOf(values: ClassifyValues): ClassificationFacts {
  return {
    criticalServicesAffected: values.criticalServicesAffected,
    membersAffected: numberOr(values.membersAffected, 0),
    membersOfService: numberOr(values.membersOfService, 0),
    relevantMembersAffected: values.relevantMembersAffected,
    reputationalImpact: values.reputationalImpact,
    durationHours: numberOr(values.durationHours, 0),
    downtimeHours: numberOr(values.downtimeHours, 0),
    memberStatesAffected: numberOr(values.memberStatesAffected, 1),
    dataLosses: values.dataLosses,
    economicImpactCents: costsOf(values.economicImpactEuro),
  };
}

/**
 * The classification as a guided form: each criterion of RTS (EU) 2024/1772 asked in turn, and
 * the answer the rules give (dora-rules.ts) shown as it is filled in; a recurrence may be taken as
 * major with the incidents it recurs.
 */
function ClassifyForm({ incident, onClose }: { incident: Incident; onClose: () => void }) {
  const refresh = useRefreshIncidents();
  const known = incident.classification?.criteria;
  const form = useForm<ClassifyValues>({
    validate: {
      economicImpactEuro: (typed) => (typed.trim() === '' ? null : euroFieldError(typed)),
    },
    initialValues: {
      criticalServicesAffected: known?.criticalServicesAffected ?? false,
      membersAffected: known?.membersAffected ?? 0,
      membersOfService: known?.membersOfService ?? 0,
      relevantMembersAffected: known?.relevantMembersAffected ?? false,
      reputationalImpact: known?.reputationalImpact ?? false,
      durationHours: known?.durationHours ?? 0,
      downtimeHours: known?.downtimeHours ?? 0,
      memberStatesAffected: known?.memberStatesAffected ?? 1,
      dataLosses: known?.dataLosses ?? false,
      economicImpactEuro: known ? plainEuro(known.economicImpactCents) : '',
      majorAsRecurrence: false,
    },
  });
  const criteria = criteriaOf(form.values);
  const major =
    isMajor(criteria) || (incident.recurrenceOf !== null && form.values.majorAsRecurrence);
  const met = thresholdsMet(criteria);
  const { submit, busy, problem } = useApiSubmit(form, async () => {
    const classified = await api(apiRoutes.ictIncidents.classify, {
      params: { id: incident.id },
      body: { criteria, major },
    });
    notifySuccess(
      `${classified.title}: ${classified.classification?.major ? 'major' : 'not major'}.`,
    );
    await refresh();
    onClose();
  });
  const checkbox = (name: keyof ClassifyValues, label: string, description?: string) => (
    <Checkbox
      label={label}
      description={description}
      {...form.getInputProps(name, { type: 'checkbox' })}
    />
  );
  const count = (name: keyof ClassifyValues, label: string, description?: string) => (
    <NumberInput
      label={label}
      description={description}
      min={0}
      allowNegative={false}
      {...form.getInputProps(name)}
    />
  );
  return (
    <FormShell
      label="Classify an incident"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel={major ? 'Classify as major' : 'Classify as not major'}
      onCancel={onClose}
    >
      <Text size="sm">{incident.title}</Text>
      {checkbox(
        'criticalServicesAffected',
        'Critical services are affected',
        sourceInWords(DORA_RULES.criticalServices),
      )}
      {count('membersAffected', 'Members affected')}
      {count('membersOfService', 'Members using the services affected')}
      {checkbox('relevantMembersAffected', 'Members identified as relevant are affected')}
      {checkbox(
        'reputationalImpact',
        'Reputational impact',
        'Media attention, repeated complaints, requirements not met, or members likely to leave',
      )}
      {count('durationHours', 'How long the incident lasted, in hours')}
      {count('downtimeHours', 'How long critical services were down, in hours')}
      {count('memberStatesAffected', 'Member States affected')}
      {checkbox(
        'dataLosses',
        'Data lost, corrupted, or accessed without authority',
        sourceInWords(DORA_RULES.dataLossThreshold),
      )}
      <TextInput
        label="Costs and losses, in euro"
        description={EURO_FORMAT_HINT}
        inputMode="decimal"
        {...form.getInputProps('economicImpactEuro')}
      />
      {incident.recurrenceOf !== null &&
        checkbox(
          'majorAsRecurrence',
          'Major with the incidents it recurs',
          sourceInWords(DORA_RULES.recurringIncidents),
        )}
      <Stack gap={2} role="status" aria-label="The classification">
        <Text size="sm" fw={500}>
          {classificationInWords(criteria)}
        </Text>
        <Text size="sm" c="dimmed">
          Thresholds met:{' '}
          {met.length === 0 ? 'none' : met.map((c) => CRITERION_LABELS[c]).join('; ')}
        </Text>
      </Stack>
    </FormShell>
  );
}

interface ReportValues {
  kind: string;
  submittedAt: string;
  submittedTime: string;
}

/** A report sent to the Pensions Authority: which, and when. */
function ReportForm({ incident, onClose }: { incident: Incident; onClose: () => void }) {
  const refresh = useRefreshIncidents();
  const toBody = (values: ReportValues) => ({
    kind: values.kind as ReportKind,
    submittedAt: instantOf(values.submittedAt, values.submittedTime),
  });
  const form = useForm<ReportValues>({
    initialValues: { kind: '', submittedAt: today(), submittedTime: '' },
    validate: (values) => ({
      ...validateWith(ictReportInput, toBody)(values),
      ...momentErrors({ ...values }, 'submittedAt', 'submittedTime'),
    }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const reported = await api(apiRoutes.ictIncidents.report, {
      params: { id: incident.id },
      body: toBody(values),
    });
    notifySuccess(`${reported.title}: ${REPORT_KIND_LABELS[values.kind as ReportKind]} recorded.`);
    await refresh();
    onClose();
  });
  return (
    <FormShell
      label="Record a report sent"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record report"
      onCancel={onClose}
    >
      <Text size="sm">{incident.title}</Text>
      <NativeSelect
        label="Report"
        required
        data-autofocus
        data={[
          { value: '', label: 'Choose the report' },
          ...REPORT_KINDS.map((kind) => ({ value: kind, label: REPORT_KIND_LABELS[kind] })),
        ]}
        {...form.getInputProps('kind')}
      />
      <MomentFields
        label="Sent"
        day={form.getInputProps('submittedAt')}
        time={form.getInputProps('submittedTime')}
      />
    </FormShell>
  );
}

/** A report pre-filled in the template's fields, for the firm to complete and send. */
function ReportPreview({ incident }: { incident: Incident }) {
  const next =
    incident.deadlines.find((d) => d.status === 'due' || d.status === 'overdue')?.kind ?? 'initial';
  const [kind, setKind] = useState<ReportKind>(
    next === 'intermediate_update' ? 'intermediate' : next,
  );
  const template = useQuery({
    queryKey: [...INCIDENTS_KEY, incident.id, 'template', kind],
    queryFn: () => api(apiRoutes.ictIncidents.template, { params: { id: incident.id, kind } }),
  });
  return (
    <Stack gap="sm">
      <NativeSelect
        label="Report"
        value={kind}
        onChange={(event) => setKind(event.currentTarget.value as ReportKind)}
        data={REPORT_KINDS.map((value) => ({ value, label: REPORT_KIND_LABELS[value] }))}
      />
      {template.isPending && <Text size="sm">Loading the report</Text>}
      {template.data && (
        <>
          <Text size="sm">{template.data.sendTo}</Text>
          {template.data.sections.map((section) => (
            <Stack key={section.title} gap={4}>
              <Title order={4}>{section.title}</Title>
              <Table>
                <Table.Caption>{section.title}</Table.Caption>
                <Table.Tbody>
                  {section.fields.map((entry) => (
                    <Table.Tr key={entry.name}>
                      <Table.Th scope="row">{entry.name}</Table.Th>
                      <Table.Td>{entry.value ?? 'To be filled in by the firm'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ))}
        </>
      )}
      <Text size="sm" c="dimmed">
        Deadlines:{' '}
        {incident.deadlines.map((d) => DEADLINE_KIND_LABELS[d.kind]).join('; ') || 'none'}
      </Text>
    </Stack>
  );
}
