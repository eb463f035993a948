import { Alert, Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { missingSchemeTerms } from '../../../contracts/statement-rules';
import {
  type RunStatus,
  runMadeNothing,
  type StatementRunView,
  statementRunInput,
} from '../../../contracts/statements';
import { api, describeError } from '../../api/client';
import type { Scheme } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { fetchAllPages } from '../../components/allPages';
import { type Column, CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { Loading } from '../../components/Loading';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { formatDate } from '../../format';
import { FormModal, FormShell } from '../governance/GovernanceForm';
import { validateWithDates } from '../governance/governance-helpers';
import { AssumptionSetForm } from './AssumptionSetForm';
import {
  assumptionSetsInWords,
  assumptionsChosenAtFirst,
  runStatusName,
  schemeTermsInWords,
} from './run-words';
import {
  ASSUMPTION_SETS_KEY,
  inProgress,
  runKey,
  runName,
  schemeRunsKey,
} from './statementQueries';

const STATUS_COLOURS: Record<RunStatus, string> = {
  queued: 'gray',
  running: 'blue',
  ready: 'yellow',
  approved: 'teal',
  issued: 'green',
  failed: 'red',
};

export function RunStatusBadge({ run }: { run: Pick<StatementRunView, 'status' | 'done'> }) {
  return (
    <Badge
      variant="dot"
      color={runMadeNothing(run) && run.status !== 'failed' ? 'gray' : STATUS_COLOURS[run.status]}
    >
      {runStatusName(run)}
    </Badge>
  );
}

/**
 * A scheme's Pension Benefit Statement runs, the latest first, and the form that starts one
 * (docs/decisions/0141-pension-benefit-statements.md).
 */
export function StatementRunsPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const [starting, setStarting] = useState(false);
  const columns: Column<StatementRunView>[] = [
    {
      key: 'informationDate',
      header: 'Information date',
      render: (run) => (
        <Anchor
          renderRoot={(props) => (
            <Link {...props} to="/statement-runs/$runId" params={{ runId: run.id }} />
          )}
        >
          {formatDate(run.informationDate)}
        </Anchor>
      ),
      sortValue: (run) => run.informationDate,
    },
    {
      key: 'status',
      header: 'Status',
      render: (run) => <RunStatusBadge run={run} />,
      sortValue: (run) => run.status,
    },
    {
      key: 'made',
      header: 'Statements made',
      // A finished run with nothing to make: every member checked had a data problem, or the
      // scheme had no member to check.
      render: (run) =>
        run.total === 0 && !inProgress(run.status)
          ? run.issues.length === 0
            ? 'None: the scheme had no members to make them for'
            : 'None: no member’s data passed the checks'
          : `${run.done} of ${run.total}`,
      sortValue: (run) => run.done,
    },
    {
      key: 'issues',
      header: 'Members with data problems',
      render: (run) => String(run.issues.length),
      sortValue: (run) => run.issues.length,
    },
    {
      key: 'trusteesBy',
      header: 'Trustees to have them by',
      render: (run) => formatDate(run.trusteesBy),
      sortValue: (run) => run.trusteesBy,
    },
    {
      key: 'membersBy',
      header: 'Members to have them by',
      render: (run) => formatDate(run.membersBy),
      sortValue: (run) => run.membersBy,
    },
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby="statement-runs">
      <PageHeading title="Pension Benefit Statements" order={3} id="statement-runs">
        {can(session, 'statement_run.create', scheme) && (
          <Button variant="light" onClick={() => setStarting(true)}>
            Start a run
          </Button>
        )}
      </PageHeading>
      <Text size="sm">
        Each run checks every active and deferred member’s data, then makes a statement for each
        member whose data passed. The trustees approve a run before its statements are issued.
      </Text>
      <CursorTable
        queryKey={schemeRunsKey(scheme.id)}
        route={apiRoutes.statementRuns.list}
        params={{ id: scheme.id }}
        query={{ limit: 20 }}
        columns={columns}
        caption={`Statement runs of ${scheme.name}, latest first`}
        empty="No statement run has been started for this scheme."
      />
      <FormModal opened={starting} title="Start a statement run" onClose={() => setStarting(false)}>
        <StartRunForm scheme={scheme} onClose={() => setStarting(false)} />
      </FormModal>
    </Stack>
  );
}

interface RunValues {
  informationDate: string;
  membersBy: string;
  assumptionsId: string;
}

const runBody = (values: RunValues) => ({
  informationDate: values.informationDate,
  membersBy: values.membersBy,
  assumptionsId: values.assumptionsId === '' ? undefined : values.assumptionsId,
});

function StartRunForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [addingSet, setAddingSet] = useState(false);
  const today = todayInIreland(new Date());
  const sets = useQuery({
    queryKey: ASSUMPTION_SETS_KEY,
    queryFn: () => fetchAllPages(apiRoutes.statementAssumptions.list, {}, 500),
  });
  const form = useForm<RunValues>({
    initialValues: { informationDate: '', membersBy: '', assumptionsId: '' },
    validate: validateWithDates(statementRunInput, runBody, {
      informationDate: { required: true },
      membersBy: { required: true },
    }),
  });
  // The only set there is is the one chosen: the person need not pick it from a list of one.
  const only = sets.data ? assumptionsChosenAtFirst(sets.data.items) : '';
  const { getValues, setFieldValue } = form;
  useEffect(() => {
    if (only !== '' && getValues().assumptionsId === '') setFieldValue('assumptionsId', only);
  }, [only, getValues, setFieldValue]);
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const run = await api(apiRoutes.statementRuns.queue, {
      params: { id: scheme.id },
      body: runBody(values),
    });
    client.setQueryData(runKey(run.id), run);
    await client.invalidateQueries({ queryKey: schemeRunsKey(scheme.id) });
    notifySuccess(`${runName(run)}: started. The statements are being made.`);
    onClose();
    await navigate({ to: '/statement-runs/$runId', params: { runId: run.id } });
  });
  if (sets.isPending) return <Loading label="Loading the assumption sets" />;
  if (sets.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(sets.error)}
      </Alert>
    );
  }
  const choices = sets.data.items;
  // The same check the run makes of the scheme before any member (contracts/statement-rules.ts).
  const missing = missingSchemeTerms({
    schemeType: scheme.type,
    normalRetirementAge: scheme.normalRetirementAge ?? null,
    accrualRate: scheme.accrualRate ?? null,
    fundingLevelPct: scheme.fundingLevelPct ?? null,
  });
  // Without a set the service refuses every run (runs.service.ts): the firm adds its own first
  // (docs/decisions/0141-pension-benefit-statements.md, "Assumption sets"), then chooses it here.
  if (choices.length === 0 || addingSet) {
    return (
      <Stack gap="sm">
        {choices.length === 0 && (
          <Alert color="yellow">
            There is no projection assumption set yet, and a run needs one: add your firm’s own.
          </Alert>
        )}
        <AssumptionSetForm
          onAdded={(set) => {
            form.setFieldValue('assumptionsId', set.id);
            setAddingSet(false);
          }}
          onCancel={choices.length === 0 ? onClose : () => setAddingSet(false)}
        />
      </Stack>
    );
  }
  return (
    <FormShell
      label="Start a statement run"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Start the run"
      onCancel={onClose}
    >
      {missing.length > 0 && (
        <Alert color="yellow" title="The scheme’s details are incomplete">
          {`The scheme has no ${schemeTermsInWords(missing)}. `}
          {missing.includes('no_retirement_age')
            ? 'A statement projects each member’s benefit to the scheme’s normal retirement age'
            : 'A DB statement works out each member’s pension from the accrual rate and shows the funding level'}
          , so no statement can be made until {missing.length === 1 ? 'it is' : 'they are'} set.{' '}
          {can(session, 'scheme.update', scheme)
            ? 'Close this dialog and set them with Edit scheme, in the scheme’s details at the top of this page.'
            : 'Ask your firm’s administrator to set them in the scheme’s details.'}
        </Alert>
      )}
      <IrishDateInput
        label="Information date"
        description="The date the statements’ figures are at. Day first: DD/MM/YYYY"
        required
        data-autofocus
        maxDate={today}
        {...form.getInputProps('informationDate')}
      />
      <IrishDateInput
        label="Members to have their statements by"
        description="The trustees are to have them a month before. Day first: DD/MM/YYYY"
        required
        {...form.getInputProps('membersBy')}
      />
      <NativeSelect
        label="Projection assumptions"
        description={assumptionSetsInWords(choices)}
        required
        data={[
          { value: '', label: 'Choose an assumption set' },
          ...choices.map((set) => ({
            value: set.id,
            label: `${set.name}, version ${set.version}, from ${formatDate(set.effectiveFrom)}`,
          })),
        ]}
        {...form.getInputProps('assumptionsId')}
      />
      {can(session, 'statement_assumptions.create') && (
        <Group>
          <Button size="compact-sm" variant="subtle" onClick={() => setAddingSet(true)}>
            Add an assumption set
          </Button>
        </Group>
      )}
    </FormShell>
  );
}
