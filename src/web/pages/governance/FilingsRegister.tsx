import { Button, NativeSelect, Stack, Text } from '@mantine/core';
import { type GetInputPropsReturnType, useForm } from '@mantine/form';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { filingChange, filingInput } from '../../../contracts/governance';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import {
  AUDIT_ABOVE_MEMBERS,
  FILING_KIND_NAMES,
  FILING_KINDS,
  type FilingKind,
  SCHEME_YEAR_RULES,
} from '../../../contracts/scheme-year-rules';
import { api } from '../../api/client';
import type { Filing, Scheme } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { FormModal, FormShell } from './GovernanceForm';
import {
  filingPeriodChoices,
  filingPeriodInWords,
  shownDate,
  validateWithDates,
} from './governance-helpers';
import { registerKey, useRefreshGovernance } from './governanceQueries';

const nameOf = (filing: Pick<Filing, 'kind' | 'periodEnd'>) => {
  const period = filingPeriodInWords(filing.kind, filing.periodEnd);
  // "year ended 31 Dec 2025": the sentence's first letter lowered, the month's name kept.
  return `${FILING_KIND_NAMES[filing.kind]}, ${period.charAt(0).toLowerCase()}${period.slice(1)}`;
};

/** Whether an annual report was audited, as a list offers it: not yet said, yes or no. */
type Audited = '' | 'yes' | 'no';

const auditedOf = (value: boolean | null): Audited => (value === null ? '' : value ? 'yes' : 'no');
const auditedValue = (value: Audited): boolean | null => (value === '' ? null : value === 'yes');

function auditedWords(filing: Filing): string {
  if (filing.kind !== 'annual_report') return '—';
  return filing.audited === null ? 'Not recorded' : filing.audited ? 'Yes' : 'No';
}

/** The audited field of an annual report's forms. */
function AuditedSelect(props: GetInputPropsReturnType) {
  return (
    <NativeSelect
      label="Audited"
      description={`An annual report is audited when the scheme has more than ${AUDIT_ABOVE_MEMBERS} active and deferred members (${sourceInWords(SCHEME_YEAR_RULES.annualReport)})`}
      data={[
        { value: '', label: 'Not yet known' },
        { value: 'yes', label: 'Yes, audited' },
        { value: 'no', label: 'No, not audited' },
      ]}
      {...props}
    />
  );
}

type Dialog = { kind: 'record' } | { kind: 'complete'; filing: Filing };

/**
 * The scheme year's filings (docs/decisions/0122-the-scheme-year.md): the annual report and the annual
 * scheme information return of each scheme year, and the Annual Compliance Statement of each
 * calendar year, each with when it falls due and when it was done.
 */
export function FilingsRegister({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const columns: Column<Filing>[] = [
    {
      key: 'kind',
      header: 'Filing',
      render: (filing) => FILING_KIND_NAMES[filing.kind],
      sortValue: (filing) => filing.kind,
    },
    {
      key: 'period',
      header: 'Period',
      render: (filing) => filingPeriodInWords(filing.kind, filing.periodEnd),
      sortValue: (filing) => filing.periodEnd,
    },
    {
      key: 'dueOn',
      header: 'Due',
      render: (filing) => shownDate(filing.dueOn),
      sortValue: (filing) => filing.dueOn,
    },
    {
      key: 'completedOn',
      header: 'Completed on',
      render: (filing) => (filing.completedOn ? shownDate(filing.completedOn) : 'Not yet'),
    },
    { key: 'audited', header: 'Audited', render: auditedWords },
  ];
  if (canChange(session, 'filing.update', scheme)) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      render: (filing) => (
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => setDialog({ kind: 'complete', filing })}
          aria-label={
            filing.completedOn === null
              ? `Mark completed: ${nameOf(filing)}`
              : `Change: ${nameOf(filing)}`
          }
        >
          {filing.completedOn === null ? 'Mark completed' : 'Change'}
        </Button>
      ),
    });
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-filings">
      <PageHeading title="Filings" order={3} id="governance-filings">
        {canChange(session, 'filing.create', scheme) && (
          <Button variant="light" onClick={() => setDialog({ kind: 'record' })}>
            Record a filing
          </Button>
        )}
      </PageHeading>
      <Text size="sm">
        The {FILING_KIND_NAMES.annual_report.toLowerCase()} and the{' '}
        {FILING_KIND_NAMES.annual_scheme_information.toLowerCase()} cover a scheme year; the{' '}
        {FILING_KIND_NAMES.annual_compliance_statement} covers a calendar year.{' '}
        {sourceInWords(SCHEME_YEAR_RULES.latestYearOnly)}.
      </Text>
      <CursorTable
        queryKey={registerKey(scheme.id, 'filings')}
        route={apiRoutes.filings.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100 }}
        columns={columns}
        caption="Filings of the scheme year, latest recorded first"
        empty="No filing is recorded."
      />
      <FormModal opened={dialog?.kind === 'record'} title="Record a filing" onClose={close}>
        <FilingForm scheme={scheme} onClose={close} />
      </FormModal>
      <FormModal
        opened={dialog?.kind === 'complete'}
        title={
          dialog?.kind === 'complete' && dialog.filing.completedOn !== null
            ? 'Change a filing'
            : 'Mark a filing completed'
        }
        onClose={close}
      >
        {dialog?.kind === 'complete' && (
          <CompletionForm scheme={scheme} filing={dialog.filing} onClose={close} />
        )}
      </FormModal>
    </Stack>
  );
}

interface FilingValues {
  kind: FilingKind | '';
  periodEnd: string;
  completedOn: string;
  audited: Audited;
}

const filingBody = (values: FilingValues) => ({
  kind: values.kind === '' ? undefined : values.kind,
  periodEnd: values.periodEnd,
  completedOn: values.completedOn === '' ? null : values.completedOn,
  ...(values.kind === 'annual_report' ? { audited: auditedValue(values.audited) } : {}),
});

/** A filing of a period that has ended: done already, or recorded now to be completed later. */
function FilingForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const refresh = useRefreshGovernance(scheme.id);
  const today = todayInIreland(new Date());
  const form = useForm<FilingValues>({
    initialValues: { kind: '', periodEnd: '', completedOn: '', audited: '' },
    validate: validateWithDates(filingInput, filingBody, { completedOn: { required: false } }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const filing = await api(apiRoutes.filings.create, {
      params: { id: scheme.id },
      body: filingBody(values),
    });
    notifySuccess(
      filing.completedOn
        ? `${nameOf(filing)}: recorded as completed on ${shownDate(filing.completedOn)}.`
        : `${nameOf(filing)}: recorded, due by ${shownDate(filing.dueOn)}.`,
    );
    await refresh('filings');
    onClose();
  });
  const kind = form.values.kind;
  const kindProps = form.getInputProps('kind');
  return (
    <FormShell
      label="Record a filing"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Record"
      onCancel={onClose}
    >
      <NativeSelect
        label="Filing"
        required
        data-autofocus
        data={[
          { value: '', label: 'Choose a filing' },
          ...FILING_KINDS.map((value) => ({ value, label: FILING_KIND_NAMES[value] })),
        ]}
        {...kindProps}
        onChange={(event) => {
          kindProps.onChange(event);
          const chosen = event.currentTarget.value as FilingKind | '';
          // The period the rule module chases for this kind of filing, to start from.
          form.setFieldValue(
            'periodEnd',
            chosen === '' ? '' : (filingPeriodChoices(chosen, scheme.yearEnd, today)[0] ?? ''),
          );
        }}
      />
      {kind !== '' && (
        <NativeSelect
          label="Period"
          required
          data={filingPeriodChoices(kind, scheme.yearEnd, today).map((periodEnd) => ({
            value: periodEnd,
            label: filingPeriodInWords(kind, periodEnd),
          }))}
          {...form.getInputProps('periodEnd')}
        />
      )}
      <IrishDateInput
        label="Completed on"
        description="Day first: DD/MM/YYYY. Leave empty if it is not done yet"
        maxDate={today}
        {...form.getInputProps('completedOn')}
      />
      {kind === 'annual_report' && <AuditedSelect {...form.getInputProps('audited')} />}
    </FormShell>
  );
}

interface CompletionValues {
  completedOn: string;
  audited: Audited;
}

/** When a filing was done, and for an annual report whether it was audited. */
function CompletionForm({
  scheme,
  filing,
  onClose,
}: {
  scheme: Scheme;
  filing: Filing;
  onClose: () => void;
}) {
  const refresh = useRefreshGovernance(scheme.id);
  const today = todayInIreland(new Date());
  const toBody = (values: CompletionValues) => ({
    completedOn: values.completedOn,
    ...(filing.kind === 'annual_report' ? { audited: auditedValue(values.audited) } : {}),
  });
  const form = useForm<CompletionValues>({
    initialValues: { completedOn: filing.completedOn ?? today, audited: auditedOf(filing.audited) },
    validate: validateWithDates(filingChange, toBody, { completedOn: { required: true } }),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const saved = await api(apiRoutes.filings.update, {
      params: { id: filing.id },
      body: toBody(values),
    });
    notifySuccess(`${nameOf(saved)}: completed on ${shownDate(saved.completedOn)}.`);
    await refresh('filings');
    onClose();
  });
  return (
    <FormShell
      label={filing.completedOn === null ? 'Mark a filing completed' : 'Change a filing'}
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save"
      onCancel={onClose}
    >
      <Text>
        {nameOf(filing)}, due by {shownDate(filing.dueOn)}.
      </Text>
      <IrishDateInput
        label="Completed on"
        required
        maxDate={today}
        data-autofocus
        {...form.getInputProps('completedOn')}
      />
      {filing.kind === 'annual_report' && <AuditedSelect {...form.getInputProps('audited')} />}
    </FormShell>
  );
}
