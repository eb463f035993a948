import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { MEMBER_STATUS_NAMES } from '../../../contracts/members';
import { formatCents } from '../../../contracts/money';
import { counted } from '../../../contracts/plain-english';
import {
  runMadeNothing,
  type StatementRunView,
  type StatementView,
} from '../../../contracts/statements';
import { api } from '../../api/client';
import type { Scheme } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DateTime } from '../../components/DateTime';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { QueryPanel } from '../../components/QueryPanel';
import { PINNED_END, ScrollTable } from '../../components/ScrollTable';
import { useApiAction } from '../../components/useApiSubmit';
import { formatDate } from '../../format';
import { useScheme } from '../schemes/SchemeQueries';
import {
  ADD_FUND_PRICES,
  hadNoMembers,
  mayBeApproved,
  nextStepAfterNothing,
  schemeTermsInWords,
  whatToCorrect,
} from './run-words';
import { RunStatusBadge } from './StatementRunsPanel';
import {
  inProgress,
  openStatementPdf,
  runKey,
  runName,
  runPaperKey,
  runStatementsKey,
  schemeRunsKey,
  useRun,
} from './statementQueries';

/**
 * `/statement-runs/$runId`: one run of a scheme's Pension Benefit Statements
 * (docs/decisions/0141-pension-benefit-statements.md): its progress while the statements are
 * made, the members whose data failed the checks and why, its totals, the statements made (each
 * opened as its member will see it), and the steps the person may take: the trustees' approval,
 * then the issue to the members.
 */
export function StatementRunPage() {
  const { runId = '' } = useParams({ strict: false });
  const run = useRun(runId);
  const scheme = useScheme(run.data?.schemeId ?? '', run.isSuccess);
  if (run.isPending) return <Loading label="Loading the statement run" />;
  if (run.isError) return <LoadError error={run.error} />;
  if (scheme.isError) return <LoadError error={scheme.error} />;
  if (scheme.isPending) return <Loading label="Loading the scheme" />;
  return <RunView run={run.data} scheme={scheme.data} />;
}

type Step = 'approve' | 'issue';

const STEPS: Record<Step, { title: string; confirm: string; done: string; about: string }> = {
  approve: {
    title: 'Record the trustees’ approval',
    confirm: 'Approve',
    done: 'approved by the trustees.',
    about:
      'You record that the trustees have reviewed these statements and approve them. Once approved, the statements can be issued to the members.',
  },
  issue: {
    title: 'Issue the statements',
    confirm: 'Issue',
    done: 'issued to the members.',
    about:
      'Each statement becomes its member’s own document in the member portal, and each member with an account is sent an e-mail saying it is there. This cannot be undone.',
  },
};

function RunView({ run, scheme }: { run: StatementRunView; scheme: Scheme }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const [step, setStep] = useState<Step | null>(null);
  const preparing = inProgress(run.status);
  const statements = useQuery({
    queryKey: [...runStatementsKey(run.id), run.status, run.done],
    queryFn: () => api(apiRoutes.statementRuns.statements, { params: { id: run.id } }),
    enabled: !preparing,
  });
  const next: Step | null =
    mayBeApproved(run) && can(session, 'statement_run.approve', scheme)
      ? 'approve'
      : run.status === 'approved' && can(session, 'statement_run.issue', scheme)
        ? 'issue'
        : null;
  const name = runName(run);
  return (
    <Stack gap="md" maw={1100}>
      <Anchor
        size="sm"
        renderRoot={(props) => (
          <Link
            {...props}
            to="/schemes/$schemeId"
            params={{ schemeId: scheme.id }}
            search={{ tab: 'statements' }}
          />
        )}
      >
        ← Statement runs of {scheme.name}
      </Anchor>
      <PageHeading title={`${name}: ${scheme.name}`} />
      <Group gap="sm">
        <RunStatusBadge run={run} />
        <Text size="sm">
          Started <DateTime value={run.createdAt} />
        </Text>
      </Group>
      <Text role="status" aria-label="Where the run stands">
        {standing(run)}
      </Text>
      {preparing && (
        <Stack gap={4}>
          <Progress
            value={run.total === 0 ? 0 : (run.done / run.total) * 100}
            size="lg"
            animated
            aria-label="Statements made"
          />
          <Text size="sm">
            {run.total === 0
              ? 'Checking the members’ data.'
              : `${run.done} of ${counted(run.total, 'statement')} made.`}
          </Text>
        </Stack>
      )}
      {run.status === 'failed' && (
        <Alert color="red" role="alert">
          This run stopped before its statements were made. Start a new run for the same date.
        </Alert>
      )}
      <Totals run={run} statements={statements.data ?? null} />
      <Exceptions run={run} scheme={scheme} />
      {next && (
        <Group>
          <Button onClick={() => setStep(next)}>
            {next === 'approve' ? 'Record the trustees’ approval' : 'Issue the statements'}
          </Button>
        </Group>
      )}
      {mayBeApproved(run) && next === null && (
        <Text size="sm">
          The trustees’ side (the firm’s administrator) records their approval before the statements
          are issued.
        </Text>
      )}
      {!preparing && run.status !== 'failed' && (
        <Stack gap="sm" component="section" aria-labelledby="run-statements">
          <Title order={3} id="run-statements">
            Statements
          </Title>
          <QueryPanel query={statements} loading="Loading the statements">
            {(data) => <StatementsTable run={run} statements={data} />}
          </QueryPanel>
        </Stack>
      )}
      {!preparing && run.status !== 'failed' && <PrintingList run={run} />}
      {step && (
        <ConfirmModal
          opened
          onClose={() => setStep(null)}
          title={STEPS[step].title}
          confirmLabel={STEPS[step].confirm}
          color="blue"
          onConfirm={async () => {
            const saved = await api(apiRoutes.statementRuns[step], { params: { id: run.id } });
            client.setQueryData(runKey(saved.id), saved);
            await client.invalidateQueries({ queryKey: schemeRunsKey(scheme.id) });
            notifySuccess(`${name}: ${STEPS[step].done}`);
          }}
        >
          <Text>{STEPS[step].about}</Text>
          <Text>
            {counted(run.done, 'statement')}, for the members to have by {formatDate(run.membersBy)}
            .
          </Text>
        </ConfirmModal>
      )}
    </Stack>
  );
}

/** Where the run stands, and what comes next, in a sentence. */
function standing(run: StatementRunView): string {
  switch (run.status) {
    case 'queued':
      return 'Waiting to start: the statements are made in the background.';
    case 'running':
      return 'The statements are being made. This page follows their progress.';
    case 'ready':
      return runMadeNothing(run)
        ? `This run made no statement, so there is nothing for the trustees to approve. ${nextStepAfterNothing(run)}`
        : `The statements are ready for the trustees, who are to have them by ${formatDate(run.trusteesBy)}.`;
    case 'approved':
      return `The trustees approved the statements. Issue them so the members have them by ${formatDate(run.membersBy)}.`;
    case 'issued':
      return 'The statements were issued to the members.';
    case 'failed':
      return 'The run failed.';
  }
}

/** The run's counts, and the figures of the statements listed summed. */
function Totals({
  run,
  statements,
}: {
  run: StatementRunView;
  statements: StatementView[] | null;
}) {
  const rows: [string, string][] = [
    ['Members checked', String(run.total + run.issues.length)],
    ['Members with data problems', String(run.issues.length)],
    ['Statements to make', String(run.total)],
    ['Statements made', String(run.done)],
    ['Statements that could not be made', String(run.failed)],
  ];
  if (statements && statements.length > 0) {
    const shown = counted(statements.length, 'statement');
    const paidIn = statements.reduce(
      (sum, { figures }) => sum + figures.year.memberCents + figures.year.employerCents,
      0,
    );
    rows.push([`Paid in over the year (the ${shown} listed)`, formatCents(paidIn)]);
    const funds = statements.filter(({ figures }) => figures.dc !== null);
    if (funds.length > 0) {
      const value = funds.reduce((sum, { figures }) => sum + (figures.dc?.fundValueCents ?? 0), 0);
      rows.push([`Fund values (the ${shown} listed)`, formatCents(value)]);
    }
  }
  return (
    <Stack gap="xs" component="section" aria-labelledby="run-totals">
      <Title order={3} id="run-totals">
        Totals
      </Title>
      <Table maw={560} aria-labelledby="run-totals">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row">{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/**
 * The members whose data failed a check, each with what is missing or implausible: the scheme's
 * own terms said once, with where they are set, apart from the members' records.
 */
function Exceptions({ run, scheme }: { run: StatementRunView; scheme: Scheme }) {
  if (run.issues.length === 0) {
    if (inProgress(run.status) || run.status === 'failed') return null;
    return hadNoMembers(run) ? (
      <Text>
        The scheme had no active or deferred members to make statements for, so no one was checked.
      </Text>
    ) : (
      <Text>Every member’s data passed the checks.</Text>
    );
  }
  const correct = whatToCorrect(run);
  const then = runMadeNothing(run)
    ? 'then start a new run for the same date.'
    : 'then start a run for a later information date for them to have one: this run holds its date.';
  return (
    <Stack gap="xs" component="section" aria-labelledby="run-exceptions">
      <Title order={3} id="run-exceptions">
        Members with data problems
      </Title>
      <Text size="sm">
        {counted(run.issues.length, 'member')} will get no statement from this run.
      </Text>
      {correct.scheme.length > 0 && (
        <Alert color="yellow" title="The scheme’s details are incomplete">
          No member of the scheme gets a statement until they are complete. Set the scheme’s{' '}
          {schemeTermsInWords(correct.scheme)} with Edit scheme on{' '}
          <Anchor
            renderRoot={(props) => (
              <Link {...props} to="/schemes/$schemeId" params={{ schemeId: scheme.id }} />
            )}
          >
            the scheme’s page
          </Anchor>
          , {then}
        </Alert>
      )}
      {correct.prices > 0 && (
        <Text size="sm">
          {correct.prices === 1
            ? '1 member holds a fund with no price up to the information date'
            : `${correct.prices} members hold a fund with no price up to the information date`}
          : {ADD_FUND_PRICES}, {then}
        </Text>
      )}
      {correct.members > 0 && (
        <Text size="sm">
          {correct.members === 1
            ? '1 member has a problem in their own record'
            : `${correct.members} members have problems in their own records`}
          : correct their records, {then}
        </Text>
      )}
      <ScrollTable minWidth={560} label="Members with data problems">
        <Table>
          <Table.Caption>What is missing or implausible in each member’s data</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Problem</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {run.issues.map((issue) => (
              <Table.Tr key={issue.memberId}>
                <Table.Td>
                  <MemberNameLink memberId={issue.memberId} />
                </Table.Td>
                <Table.Td>
                  <List size="sm">
                    {issue.words.map((words) => (
                      <List.Item key={words}>{words}</List.Item>
                    ))}
                  </List>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}

/** A member's name, read from their record, linking to it (where their data is corrected). */
function MemberNameLink({ memberId }: { memberId: string }) {
  const member = useQuery({
    queryKey: ['members', memberId],
    queryFn: () => api(apiRoutes.members.get, { params: { id: memberId } }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const name = member.data ? `${member.data.firstName} ${member.data.lastName}` : 'The member';
  return <MemberLink memberId={memberId} name={name} />;
}

/** A link to a member's page, by their name. */
function MemberLink({ memberId, name }: { memberId: string; name: string }) {
  return (
    <Anchor
      renderRoot={(props) => <Link {...props} to="/members/$memberId" params={{ memberId }} />}
    >
      {name}
    </Anchor>
  );
}

function StatementsTable({
  run,
  statements,
}: {
  run: StatementRunView;
  statements: StatementView[];
}) {
  if (statements.length === 0) return <Text>No statement was made in this run.</Text>;
  return (
    <Stack gap="xs">
      {run.done > statements.length && (
        <Text size="sm">
          The first {counted(statements.length, 'statement')} of {run.done}, by member, for review.
        </Text>
      )}
      <ScrollTable minWidth={720} label="Statements of the run">
        <Table>
          <Table.Caption>Each statement as its member will see it</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Benefit</Table.Th>
              <Table.Th>Issued</Table.Th>
              <Table.Th>On paper</Table.Th>
              <Table.Th style={PINNED_END}>Statement</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {statements.map((statement) => (
              <Table.Tr key={statement.id}>
                <Table.Td>
                  <MemberLink memberId={statement.memberId} name={statement.figures.memberName} />
                </Table.Td>
                <Table.Td>{MEMBER_STATUS_NAMES[statement.figures.status]}</Table.Td>
                <Table.Td>{benefitOf(statement)}</Table.Td>
                <Table.Td>
                  {statement.issuedAt ? <DateTime value={statement.issuedAt} /> : 'Not yet'}
                </Table.Td>
                <Table.Td>{statement.paper ? 'Asked for' : 'No'}</Table.Td>
                <Table.Td style={PINNED_END}>
                  <OpenStatementButton
                    statementId={statement.id}
                    label={`Open the statement of ${statement.figures.memberName} (PDF)`}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}

/**
 * The statements whose members asked for them on paper: what the firm prints and posts
 * (docs/decisions/0141-pension-benefit-statements.md, "Paper on request"). A request is marked on
 * the member's page, under their statements.
 */
function PrintingList({ run }: { run: StatementRunView }) {
  const list = useQuery({
    queryKey: runPaperKey(run.id),
    queryFn: () => api(apiRoutes.statementRuns.paper, { params: { id: run.id } }),
  });
  return (
    <Stack gap="xs" component="section" aria-labelledby="run-printing">
      <Title order={3} id="run-printing">
        To print and post
      </Title>
      <QueryPanel
        query={list}
        loading="Loading the printing list"
        isEmpty={(data) => data.length === 0}
        empty="No member has asked for this run’s statement on paper. A request is marked on the member’s page, under their statements."
      >
        {(data) => (
          <>
            <Text size="sm">
              {counted(data.length, 'member')} asked for their statement on paper.
            </Text>
            <ScrollTable minWidth={480} label="Statements to print">
              <Table>
                <Table.Caption>Statements to print and post, by member</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Member</Table.Th>
                    <Table.Th>Issued</Table.Th>
                    <Table.Th style={PINNED_END}>Statement</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((statement) => (
                    <Table.Tr key={statement.id}>
                      <Table.Td>
                        <MemberLink memberId={statement.memberId} name={statement.memberName} />
                      </Table.Td>
                      <Table.Td>
                        {statement.issuedAt ? <DateTime value={statement.issuedAt} /> : 'Not yet'}
                      </Table.Td>
                      <Table.Td style={PINNED_END}>
                        <OpenStatementButton
                          statementId={statement.id}
                          label={`Open the statement of ${statement.memberName} to print (PDF)`}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          </>
        )}
      </QueryPanel>
    </Stack>
  );
}

/** The headline figure of a statement: a DC fund's value, or a DB pension accrued a year. */
function benefitOf({ figures }: StatementView): string {
  if (figures.dc) return `Fund value ${formatCents(figures.dc.fundValueCents)}`;
  if (figures.db) return `Pension ${formatCents(figures.db.accruedPensionCents)} a year`;
  return '—';
}

/** Opens a statement's PDF, the one its member gets. */
export function OpenStatementButton({
  statementId,
  label,
}: {
  statementId: string;
  label: string;
}) {
  const open = useApiAction(() => openStatementPdf(statementId));
  return (
    <Button
      size="compact-sm"
      variant="default"
      loading={open.busy}
      onClick={open.run}
      aria-label={label}
    >
      Open (PDF)
    </Button>
  );
}
